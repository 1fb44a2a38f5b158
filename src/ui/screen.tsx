/** The Ink side of `ui`: a progress screen while the loader works, then the App; resolves with the exit code. */
import { Box, render, Text } from 'ink';
import { useEffect, useState } from 'react';
import { stripControl } from '../report/sanitize.js';
import { App } from './components/App.js';
import type { UiData } from './view-data.js';
import type { Loader, WorkerMessage } from './loader.js';

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

/** Renders until the user quits or loading fails; returns the exit code and what to print after. */
export async function showUi(loader: Loader): Promise<{ code: number; message?: string }> {
  let result: { code: number; message?: string } = { code: 0 };
  const app = render(
    <Root
      worker={loader}
      onExit={(code, message) => {
        result = message === undefined ? { code } : { code, message };
        app.unmount();
      }}
    />,
    { exitOnCtrlC: false },
  );
  await app.waitUntilExit();
  return result;
}
