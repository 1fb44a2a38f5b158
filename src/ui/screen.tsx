/** The Ink side of `ui`: a progress screen while the loader works, then the App; resolves with the exit code. */
import { Box, render, Text, useInput } from 'ink';
import { useEffect, useState } from 'react';

import { stripControl } from '../report/sanitize.js';
import { App } from './components/App.js';
import type { Loader, LoadMessage } from './loader.js';
import type { UiData } from './view-data.js';

/** What each loading phase is doing, in words (phases without a word show as reading). */
const PHASE_WORDS: Readonly<Record<string, string>> = {
  memory: 'what holds the memory of',
  growth: 'comparing the heap dumps:',
  dominators: 'the dominator tree of',
  summary: 'the leak suspects of',
  paths: 'the paths from GC roots of',
  model: 'reconstructing pools, locks and series of',
  rules: 'running the rules on',
  screens: 'laying out the screens of',
};

function Loading({ loader, onDone, onQuit }: { readonly loader: Loader; readonly onDone: (m: LoadMessage) => void; readonly onQuit: (code: number) => void }) {
  const [progress, setProgress] = useState<{ file: string; doing: string; pct: string; mb: string }>({ file: 'starting', doing: 'reading', pct: '', mb: '' });
  // Quitting does not wait for the load: q or Esc end at once (0), Ctrl-C as an interrupt (130).
  useInput((input, key) => {
    if (key.ctrl && input === 'c') onQuit(130);
    else if (input === 'q' || key.escape) onQuit(0);
  });
  useEffect(() => {
    const onMessage = (m: LoadMessage) => {
      if (m.type === 'progress') {
        const doing = PHASE_WORDS[m.phase] ?? 'reading';
        // Any phase that reads says how far (the memory analysis reads the heap again, as `memory` shows it).
        const measured = m.bytesRead > 0;
        setProgress({
          file: stripControl(m.file),
          doing,
          pct: measured && m.totalBytes ? `${Math.min(100, Math.round((100 * m.bytesRead) / m.totalBytes))}%` : '',
          mb: measured ? `${(m.bytesRead / 1048576).toFixed(1)} MB` : '',
        });
      } else onDone(m);
    };
    loader.on('message', onMessage);
    return () => {
      loader.off('message', onMessage);
    };
  }, [loader, onDone]);
  const width = 30;
  const filled = progress.pct ? Math.round((Number(progress.pct.slice(0, -1)) / 100) * width) : 0;
  return (
    <Box flexDirection="column">
      <Text bold>dumpsleuth</Text>
      <Text>
        {progress.doing} {progress.file} {progress.mb} {progress.pct}
      </Text>
      <Text>{'█'.repeat(filled) + '░'.repeat(width - filled)}</Text>
      <Text dimColor>q quits</Text>
    </Box>
  );
}

/** The whole UI: the loading screen until the data comes, then the App. */
export function Root({ loader, onExit }: { readonly loader: Loader; readonly onExit: (code: number, message?: string) => void }) {
  const [data, setData] = useState<UiData | undefined>(undefined);
  const onDone = (m: LoadMessage) => {
    if (m.type === 'done') setData(m.data);
    else if (m.type === 'error') onExit(2, `error: ${m.message}\n  ${m.remedy}`);
    else if (m.type === 'crash') onExit(70, `internal error (a bug in dumpsleuth, please report it): ${m.message}`);
  };
  return data === undefined ? <Loading loader={loader} onDone={onDone} onQuit={(code) => onExit(code)} /> : <App data={data} onQuit={(code) => onExit(code)} />;
}

/** Renders until the user quits or loading fails; returns the exit code and what to print after. */
export async function showUi(loader: Loader): Promise<{ code: number; message?: string }> {
  let result: { code: number; message?: string } = { code: 0 };
  const app = render(
    <Root
      loader={loader}
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
