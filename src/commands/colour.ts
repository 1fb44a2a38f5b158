/**
 * Colour level, decided once: --color/--no-color flag > a file (none) > FORCE_COLOR > NO_COLOR > whether stdout is a TTY.
 * chalk itself ignores NO_COLOR, so it is applied here.
 */
import { Chalk, type ChalkInstance } from 'chalk';

export function decideColour(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTty: boolean, writingToFile: boolean): ChalkInstance {
  let level: 0 | 1 | 2 | 3;
  if (flag !== undefined) level = flag ? 1 : 0;
  // A file gets colour codes only when asked with --color: FORCE_COLOR is about terminals.
  else if (writingToFile) level = 0;
  else if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '') {
    const f = env['FORCE_COLOR'];
    level = f === 'false' || f === '0' ? 0 : f === '2' ? 2 : f === '3' ? 3 : 1;
  } else if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') level = 0;
  else level = isTty && !writingToFile ? 1 : 0;
  return new Chalk({ level });
}
