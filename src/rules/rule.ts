/** What a rule is: data (meta) plus a check over the Model. Rules never format or print. */
import type { Evidence, FactValue, Severity } from '../model/findings.js';
import type { Model } from '../model/model.js';

export type OptionValue = number | string | boolean;

export interface RuleOption {
  readonly default: OptionValue;
  readonly description: string;
}

export interface RuleMeta {
  /** Stable id: scripts and tickets depend on it. Same as the file name. */
  readonly id: string;
  readonly defaultSeverity: Severity;
  readonly title: string;
  readonly description: string;
  readonly remedy: string;
  readonly options: Readonly<Record<string, RuleOption>>;
}

/** A finding as a rule proposes it; the engine adds the id, rule and final severity. */
export interface FindingDraft {
  readonly subject: string;
  readonly title?: string;
  readonly message: string;
  readonly facts: Readonly<Record<string, FactValue>>;
  readonly evidence: readonly Evidence[];
  readonly causedBy?: readonly string[];
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

export interface RuleContext {
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
