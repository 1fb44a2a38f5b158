/** Runs the registry over the Model: severities resolved, ids assigned, causes linked, order fixed. */
import { severityRank, type Finding } from '../model/findings.js';
import type { Model } from '../model/model.js';
import { findingId, type Rule } from '../rules/rule.js';
import type { ResolvedConfig } from './config.js';

export function runRules(model: Model, rules: readonly Rule[], config: ResolvedConfig): Finding[] {
  const findings: Finding[] = [];
  const order = new Map<string, number>();
  const seen = new Map<string, number>();
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
        message: d.message,
        facts: d.facts,
        evidence: d.evidence,
        causedBy: d.causedBy ?? [],
        remedy: d.remedy ?? rule.meta.remedy,
      });
    }
  });
  const ids = new Set(findings.map((f) => f.id));
  const linked = findings.map((f) => ({ ...f, causedBy: f.causedBy.filter((c) => ids.has(c) && c !== f.id) }));
  return linked.sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      order.get(a.id)! - order.get(b.id)! ||
      a.subject.localeCompare(b.subject),
  );
}
