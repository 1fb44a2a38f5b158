/** What a rule is: data (meta) plus a check over the Model. Rules never format or print. */
import type { Evidence, FactValue, RemedyKind, Severity } from '../model/findings.js';
import type { Model } from '../model/model.js';

export type OptionValue = number | string | boolean;

/**
 * An option a rule reads, with its type and bounds: the config is checked against them when it is
 * read, so a rule never sees a value it cannot use (a ratio of 5, a count of -1, a string for a number).
 */
export type RuleOption =
  | { readonly type: 'number' | 'integer'; readonly default: number; readonly min?: number; readonly max?: number; readonly description: string }
  | { readonly type: 'string'; readonly default: string; readonly description: string }
  | { readonly type: 'boolean'; readonly default: boolean; readonly description: string }
  | { readonly type: 'enum'; readonly default: string; readonly values: readonly string[]; readonly description: string };

interface RuleMeta {
  /** Stable id: scripts and tickets depend on it. Same as the file name. */
  readonly id: string;
  readonly defaultSeverity: Severity;
  readonly title: string;
  readonly description: string;
  readonly remedy: string;
  /** `search` for a remedy that says how to find the cause rather than what to change (see RemedyKind); `fix` when not given. */
  readonly remedyKind?: RemedyKind;
  readonly options: Readonly<Record<string, RuleOption>>;
}

/**
 * A link from a finding to the finding that causes it: the cause's rule and subject. The engine
 * turns it into the cause's finding id, and refuses a rule id it does not know (a typo would
 * otherwise drop the link without a word); a known rule that found nothing there just has no cause.
 */
export interface CauseLink {
  readonly rule: string;
  readonly subject: string;
}

/** A finding as a rule proposes it; the engine adds the id, rule and final severity. */
export interface FindingDraft {
  readonly subject: string;
  readonly title?: string;
  /** The finding in one line (the summary's); by default the message's first sentence. */
  readonly headline?: string;
  readonly message: string;
  readonly facts: Readonly<Record<string, FactValue>>;
  readonly evidence: readonly Evidence[];
  readonly causedBy?: readonly CauseLink[];
  readonly remedy?: string;
  /** A rule may rate one finding below or above its default (e.g. an inferred deadlock). */
  readonly severity?: Severity;
  /**
   * What the problem does, as one number that orders findings of equal severity: threads held up
   * (request workers and the threads behind a lock count most), CPU burned. Defaults to the
   * threads the finding names.
   */
  readonly impact?: number;
}

interface RuleContext {
  readonly model: Model;
  readonly options: Readonly<Record<string, OptionValue>>;
}

export interface Rule {
  readonly meta: RuleMeta;
  check(ctx: RuleContext): FindingDraft[];
}

/** Finding ids are `rule:subject`, so other findings can point at them as causes. */
export function findingId(rule: string, subject: string): string {
  return `${rule}:${subject}`;
}

/** What values an option takes, in words: `an integer from 1 to 1000`, `a number of at least 0`, `true or false`. */
export function optionDomain(o: RuleOption): string {
  switch (o.type) {
    case 'number':
    case 'integer': {
      const what = o.type === 'integer' ? 'an integer' : 'a number';
      if (o.min !== undefined && o.max !== undefined) return `${what} from ${o.min} to ${o.max}`;
      if (o.min !== undefined) return `${what} of at least ${o.min}`;
      if (o.max !== undefined) return `${what} of at most ${o.max}`;
      return what;
    }
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${o.values.map((v) => JSON.stringify(v)).join(', ')}`;
  }
}

/** Whether a value is one the option takes (its type, and its range for numbers). */
export function optionAccepts(o: RuleOption, value: unknown): boolean {
  switch (o.type) {
    case 'number':
    case 'integer':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (o.type === 'number' || Number.isInteger(value)) &&
        (o.min === undefined || value >= o.min) &&
        (o.max === undefined || value <= o.max)
      );
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
      return typeof value === 'string' && o.values.includes(value);
  }
}
