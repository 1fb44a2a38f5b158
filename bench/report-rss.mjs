// Preloaded with --import by benchmarks: on exit, writes the process's peak RSS in MB and its CPU
// seconds (user + system; worker threads and the zlib thread pool included, as they share the
// process) as JSON to the file named by DUMPSLEUTH_RSS_FILE.
import { writeFileSync } from 'node:fs';

const target = process.env.DUMPSLEUTH_RSS_FILE;
if (target) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ rssMb: u.maxRSS / 1024, cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6 }));
  });
}
