/** `dumpsleuth rules`: the built-in rules, their ids, severities and options. */
import { RULES } from '../rules/index.js';
import { optionDomain } from '../rules/rule.js';

export function rulesCommand(format: string): string {
  if (format === 'json') {
    return (
      JSON.stringify(
        RULES.map((r) => r.meta),
        null,
        2,
      ) + '\n'
    );
  }
  const lines: string[] = [];
  for (const r of RULES) {
    lines.push(`${r.meta.id}  (${r.meta.defaultSeverity})`, `  ${r.meta.description}`);
    for (const [name, o] of Object.entries(r.meta.options)) {
      lines.push(`  option ${name} = ${JSON.stringify(o.default)} (${optionDomain(o)}): ${o.description}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
