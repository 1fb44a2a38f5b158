/**
 * The report's first screen: each root cause on one line, what it causes nested under it, then what
 * to do first. Built from the findings' `causedBy` links, which the rules set (a queue backlog whose
 * workers wait on a starved connection pool names that pool's finding); every format draws the same
 * tree, so a reader sees the chain of cause and effect before the blocks that prove each link.
 */
import { type Finding, wholeFirstSentence } from '../model/findings.js';

/** A finding and what it causes; `alsoCausedBy`: its other causes, when it has more than the one it hangs under. */
export interface CauseNode {
  readonly finding: Finding;
  readonly effects: readonly CauseNode[];
  readonly alsoCausedBy: readonly Finding[];
}

export interface CausalSummary {
  /** Root causes in the findings' order (most severe, then biggest, first). */
  readonly causes: readonly CauseNode[];
  /** What to do first: the first sentence of the remedy of the top root cause's chain (see firstFix), never cut; undefined with no findings. */
  readonly first: { readonly finding: Finding; readonly step: string } | undefined;
}

/**
 * The tree: a finding none of whose causes is in the report is a root; any other hangs under the
 * first of its causes met in the findings' order (its other causes are named beside it). A finding
 * is placed once; a cycle of causes (no rule makes one, but links are data) is broken where it is
 * first met, its finding then a root.
 */
export function causalSummary(findings: readonly Finding[]): CausalSummary {
  const byId = new Map(findings.map((f) => [f.id, f]));
  const causesOf = (f: Finding) => f.causedBy.map((id) => byId.get(id)).filter((c): c is Finding => c !== undefined && c !== f);
  const effectsOf = new Map<string, Finding[]>();
  for (const f of findings) {
    const [cause] = causesOf(f);
    if (cause !== undefined) effectsOf.set(cause.id, [...(effectsOf.get(cause.id) ?? []), f]);
  }
  const placed = new Set<string>();
  const node = (f: Finding): CauseNode => {
    placed.add(f.id);
    const effects = (effectsOf.get(f.id) ?? []).filter((e) => !placed.has(e.id)).map((e) => node(e));
    return { finding: f, effects, alsoCausedBy: causesOf(f).slice(1) };
  };
  const causes: CauseNode[] = [];
  for (const f of findings) if (!placed.has(f.id) && causesOf(f).length === 0) causes.push(node(f));
  // What a cycle left out: each stands as a root where it is first met.
  for (const f of findings) if (!placed.has(f.id)) causes.push(node(f));
  const top = causes[0] !== undefined ? firstFix(causes[0]) : undefined;
  return { causes, first: top !== undefined && top.remedy !== '' ? { finding: top, step: wholeFirstSentence(top.remedy) } : undefined };
}

/**
 * Whose remedy comes first: the top cause's, unless it only says how to find the cause (threads stuck
 * in one place: find what they wait for) and a finding it causes says what to change (the log
 * appender they all wait behind); then the first such finding, depth first.
 */
function firstFix(root: CauseNode): Finding {
  for (const { node } of walkCauses([root])) if (node.finding.remedyKind === 'fix' && node.finding.remedy !== '') return node.finding;
  return root.finding;
}

/** Every node of the tree, depth first, with its depth (0 for a root cause). */
export function* walkCauses(nodes: readonly CauseNode[], depth = 0): Generator<{ node: CauseNode; depth: number }> {
  for (const n of nodes) {
    yield { node: n, depth };
    yield* walkCauses(n.effects, depth + 1);
  }
}
