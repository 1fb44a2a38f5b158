/**
 * Prints every thread's activity verdict and its reason, and the pools found, for the given inputs
 * (a development aid for the classifier's knowledge tables). Run: `npx tsx scripts/explain-threads.ts <paths...> [--only working|idle|blocked|housekeeping]`.
 */
import { analyse } from '../test/helpers.js';

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : undefined;
const { model, findings } = await analyse(args);
model.dumps.forEach((d, di) => {
  console.log(`# dump ${di}: ${d.source} (${d.threads.length} threads${d.timestamp ? `, ${d.timestamp}` : ''})`);
  d.threads.forEach((th, ti) => {
    const a = model.activity[di]![ti]!;
    if (only !== undefined && a.activity !== only) return;
    console.log(`  ${a.activity.padEnd(12)} ${a.basis.padEnd(16)} ${JSON.stringify(th.name)}: ${a.reason}`);
  });
  for (const e of model.executors.filter((x) => x.dump === di)) console.log(`  pool ${JSON.stringify(e.name)} [${e.loop}] ${e.busy}/${e.workers} busy`);
});
for (const f of findings) console.log(`${f.severity} ${f.rule} | ${f.subject} | ${f.message.slice(0, 240)}`);
