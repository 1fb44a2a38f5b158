/**
 * `dumpsleuth ui <paths...>`: full screen over the alternate buffer, loading on a worker thread with a
 * progress line, then the App. The terminal is restored on quit, on Ctrl-C and on errors. Imported
 * only by this command: Ink costs about a second to load.
 */
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { errorText, loadIncidentData } from './load-incident-data.js';
import { Box, render, Text } from 'ink';
import { useEffect, useState } from 'react';
import { Chalk } from 'chalk';
import chalk from 'chalk';
import { UsageError, UserError } from '../errors.js';
import { stripControl } from '../report/sanitize.js';
import { App } from './components/App.js';
import type { UiData } from './view-data.js';

const ENTER_ALT_SCREEN = '\u001b[?1049h\u001b[H';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';

export interface UiOptions {
  readonly config?: string;
  readonly color?: boolean;
}

type WorkerMessage =
  | { type: 'progress'; file: string; bytesRead: number; totalBytes: number | null }
  | { type: 'done'; data: UiData; notes: string[] }
  | { type: 'error'; message: string; remedy: string }
  | { type: 'crash'; message: string };

/** Where the data comes from: a worker thread, or (run from source, where workers cannot load TypeScript) this thread. */
interface Loader {
  on(event: 'message', f: (m: WorkerMessage) => void): unknown;
  off(event: 'message', f: (m: WorkerMessage) => void): unknown;
  terminate(): Promise<unknown>;
}

function startLoading(paths: string[], config: string | undefined): Loader {
  if (!import.meta.url.endsWith('.tsx')) {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: { paths, config } });
    // A worker that dies is a bug to report, not a hang or a stack trace on the screen.
    worker.on('error', (e) => worker.emit('message', { type: 'crash', message: e.stack ?? String(e) }));
    return worker;
  }
  const events = new EventEmitter();
  setImmediate(() => {
    loadIncidentData(paths, config, (p) => events.emit('message', { type: 'progress', file: p.file, bytesRead: p.event.bytesRead, totalBytes: p.event.totalBytes ?? null })).then(
      (r) => events.emit('message', { type: 'done', data: r.data, notes: r.notes }),
      (e: unknown) => {
        const user = errorText(e);
        events.emit('message', user ? { type: 'error', ...user } : { type: 'crash', message: (e as Error)?.stack ?? String(e) });
      },
    );
  });
  return { on: (e, f) => events.on(e, f), off: (e, f) => events.off(e, f), terminate: async () => undefined };
}

function Loading({ worker, onDone }: { readonly worker: Loader; readonly onDone: (m: WorkerMessage) => void }) {
  const [progress, setProgress] = useState<{ file: string; pct: string; mb: string }>({ file: 'starting', pct: '', mb: '' });
  useEffect(() => {
    const onMessage = (m: WorkerMessage) => {
      if (m.type === 'progress') {
        setProgress({ file: stripControl(m.file), pct: m.totalBytes ? `${Math.min(100, Math.round((100 * m.bytesRead) / m.totalBytes))}%` : '', mb: `${(m.bytesRead / 1048576).toFixed(1)} MB` });
      } else onDone(m);
    };
    worker.on('message', onMessage);
    return () => {
      worker.off('message', onMessage);
    };
  }, [worker, onDone]);
  const width = 30;
  const filled = progress.pct ? Math.round((Number(progress.pct.slice(0, -1)) / 100) * width) : 0;
  return (
    <Box flexDirection="column">
      <Text bold>dumpsleuth</Text>
      <Text>
        reading {progress.file} {progress.mb} {progress.pct}
      </Text>
      <Text>{'█'.repeat(filled) + '░'.repeat(width - filled)}</Text>
    </Box>
  );
}

function Root({ worker, onExit }: { readonly worker: Loader; readonly onExit: (code: number, message?: string) => void }) {
  const [data, setData] = useState<UiData | undefined>(undefined);
  const onDone = (m: WorkerMessage) => {
    if (m.type === 'done') setData(m.data);
    else if (m.type === 'error') onExit(2, `error: ${m.message}\n  ${m.remedy}`);
    else if (m.type === 'crash') onExit(70, `internal error (a bug in dumpsleuth, please report it): ${m.message}`);
  };
  return data === undefined ? <Loading worker={worker} onDone={onDone} /> : <App data={data} onQuit={() => onExit(0)} />;
}

export async function runUi(paths: string[], options: UiOptions, env: NodeJS.ProcessEnv): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('`ui` needs a terminal (stdin and stdout are not a TTY here)', 'use `dumpsleuth analyze` for scripts, pipes and CI (--format text or json)');
  }
  // Ink colours through the shared chalk; NO_COLOR (which chalk ignores) is applied here, once.
  const level = options.color !== undefined ? (options.color ? 1 : 0) : env['NO_COLOR'] ? 0 : new Chalk().level;
  chalk.level = level as 0 | 1 | 2 | 3;
  const worker = startLoading(paths, options.config);
  let exitCode = 0;
  let exitMessage: string | undefined;
  process.stdout.write(ENTER_ALT_SCREEN);
  const restore = () => process.stdout.write(LEAVE_ALT_SCREEN);
  const onSignal = () => {
    restore();
    process.exit(130);
  };
  process.once('SIGTERM', onSignal);
  try {
    const app = render(
      <Root
        worker={worker}
        onExit={(code, message) => {
          exitCode = code;
          exitMessage = message;
          app.unmount();
        }}
      />,
      { exitOnCtrlC: false },
    );
    await app.waitUntilExit();
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    exitCode = 2;
    exitMessage = `error: ${e.message}\n  ${e.remedy}`;
  } finally {
    restore();
    process.off('SIGTERM', onSignal);
    await worker.terminate();
  }
  if (exitMessage !== undefined) process.stderr.write(exitMessage + '\n');
  return exitCode;
}
