/** Runs the registry over the Model: severities resolved, ids assigned, causes linked, order fixed. */
import { type Finding, firstSentence, severityRank, threadsCounted } from '../model/findings.js';
import type { Model } from '../model/model.js';
import { compareText } from '../model/text-order.js';
import { findingId, type Rule } from '../rules/rule.js';
import type { ResolvedConfig } from './config.js';

export function runRules(model: Model, rules: readonly Rule[], config: ResolvedConfig): Finding[] {
  const findings: Finding[] = [];
  const order = new Map<string, number>();
  const seen = new Map<string, number>();
  const known = new Set(rules.map((r) => r.meta.id));
  rules.forEach((rule, ruleIndex) => {
    const rc = config[rule.meta.id];
    if (rc && !rc.enabled) return;
    const options = rc?.options ?? Object.fromEntries(Object.entries(rule.meta.options).map(([k, o]) => [k, o.default]));
    for (const d of rule.check({ model, options })) {
      // Ids must be unique for causedBy links; the same subject twice (two JVMs, same thread names) is numbered.
      const base = findingId(rule.meta.id, d.subject);
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const id = n === 1 ? base : `${base} #${n}`;
      order.set(id, ruleIndex);
      findings.push({
        id,
        rule: rule.meta.id,
        severity: rc?.severity ?? d.severity ?? rule.meta.defaultSeverity,
        subject: d.subject,
        title: d.title ?? rule.meta.title,
        headline: d.headline ?? firstSentence(d.message),
        message: d.message,
        facts: d.facts,
        evidence: d.evidence,
        causedBy: (d.causedBy ?? []).map((link) => {
          // A rule id the registry lacks is a rule's bug (a typo, a renamed rule): say so, never drop it quietly.
          if (!known.has(link.rule)) throw new Error(`rule ${rule.meta.id}: finding "${d.subject}" links to unknown rule id "${link.rule}"`);
          return findingId(link.rule, link.subject);
        }),
        remedy: d.remedy ?? rule.meta.remedy,
        remedyKind: rule.meta.remedyKind ?? 'fix',
        impact: d.impact ?? defaultImpact(d.facts),
      });
    }
  });
  const ids = new Set(findings.map((f) => f.id));
  // A link to a known rule that found nothing there (or is turned off) is dropped: the cause was not found.
  const linked = findings.map((f) => ({ ...f, causedBy: f.causedBy.filter((c) => ids.has(c) && c !== f.id) }));
  // A cause does at least what it causes: it weighs more than each of its victims, so of one
  // severity the root comes first. Links form no long chains; a few passes settle them.
  const impact = new Map(linked.map((f) => [f.id, f.impact]));
  for (let pass = 0; pass < 5; pass++) {
    let changed = false;
    for (const f of linked) {
      for (const c of f.causedBy) {
        const need = impact.get(f.id)! + 1;
        if (impact.get(c)! < need) {
          impact.set(c, need);
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  for (let i = 0; i < linked.length; i++) linked[i] = { ...linked[i]!, impact: impact.get(linked[i]!.id)! };
  return linked.sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) || b.impact - a.impact || order.get(a.id)! - order.get(b.id)! || compareText(a.subject, b.subject),
  );
}

/** The threads a finding counts, when its rule says nothing of its impact. */
function defaultImpact(facts: Readonly<Record<string, unknown>>): number {
  return threadsCounted(facts) ?? 1;
}
