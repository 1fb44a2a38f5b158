/**
 * `dumpsleuth ui <paths...>`: full screen over the alternate buffer, loading with a progress line
 * naming each phase, then the App. The terminal is restored on quit, on Ctrl-C and on errors. The loading
 * starts first; Ink (about a second to import) loads meanwhile, and only for this command.
 */
import chalk, { Chalk } from 'chalk';

import type { PlanLimits } from '../analysis/load-incident.js';
import { UsageError, UserError } from '../errors.js';
import { startLoading } from './loader.js';
import type * as ScreenModule from './screen.js';

const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';

/** The limits are the analysis plan's own (`--memory`, `--max-memory` and `--max-gunzip-size`, already parsed). */
export interface UiOptions extends Pick<PlanLimits, 'memory' | 'maxMemoryBytes' | 'maxGunzipBytes'> {
  readonly config?: string;
  readonly color?: boolean;
}

/**
 * The screen, from the bundle the build makes (Ink and React in one file: 0.1 s to import instead
 * of 0.4 s, see scripts/bundle-ui.mjs); from its modules when run from the sources (`npm run dev`).
 */
async function importScreen(): Promise<typeof ScreenModule> {
  try {
    return await import('./screen.bundle.js');
  } catch (e) {
    // Only the bundle itself missing (its `url` is the one asked for), not something it imports.
    if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || (e as { url?: string }).url !== new URL('./screen.bundle.js', import.meta.url).href)
      throw e;
    return await import('./screen.js');
  }
}

export async function runUi(paths: string[], options: UiOptions, env: NodeJS.ProcessEnv): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError(
      '`ui` needs a terminal (stdin and stdout are not a TTY here)',
      'use `dumpsleuth analyze` for scripts, pipes and CI (--format text or json)',
    );
  }
  // Ink colours through the shared chalk; NO_COLOR (which chalk ignores) is applied here, once.
  const level = options.color !== undefined ? (options.color ? 1 : 0) : env['NO_COLOR'] ? 0 : new Chalk().level;
  chalk.level = level as 0 | 1 | 2 | 3;
  const loader = startLoading({
    paths,
    ...(options.config !== undefined ? { config: options.config } : {}),
    memory: options.memory ?? 'auto',
    ...(options.maxMemoryBytes !== undefined ? { maxMemoryBytes: options.maxMemoryBytes } : {}),
    ...(options.maxGunzipBytes !== undefined ? { maxGunzipBytes: options.maxGunzipBytes } : {}),
  });
  process.stdout.write(ENTER_ALT_SCREEN);
  const restore = () => process.stdout.write(LEAVE_ALT_SCREEN);
  const onSignal = () => {
    restore();
    process.exit(130);
  };
  process.once('SIGTERM', onSignal);
  let result: { code: number; message?: string };
  try {
    // Ink draws only the last frame when it believes it runs in CI (it reads CI when first imported).
    // Here there is a terminal and a person asked for the UI, so it is interactive even in a CI shell.
    for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) if (name in process.env) process.env[name] = 'false';
    const { showUi } = await importScreen();
    result = await showUi(loader);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    result = { code: 2, message: `error: ${e.message}\n  ${e.remedy}` };
  } finally {
    restore();
    process.off('SIGTERM', onSignal);
  }
  if (result.message !== undefined) process.stderr.write(result.message + '\n');
  // Quit during loading: the analysis on this thread would run on to its end; nothing waits for it.
  if (loader.busy()) {
    loader.cancel();
    process.exit(result.code);
  }
  return result.code;
}
