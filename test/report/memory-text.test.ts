/**
 * The memory report's suspect lines, from hand-built summaries: where the memory of a suspect does not
 * gather in one of the objects it holds, the report names the biggest of them with their sizes (as
 * MAT's leak suspects do), and says nothing more when none is big enough to name (the control).
 */
import { describe, expect, test } from 'vitest';

import type { LeakSuspect, MemorySummary, RetainedObject, RetainerNode } from '../../src/model/memory.js';
import { renderMemoryText } from '../../src/report/memory-text.js';

const MB = 1024 * 1024;
const object = (className: string, id: string, retained: number): RetainedObject => ({ index: Number.parseInt(id, 16), id, className, shallow: 48, retained });

function report(biggest: RetainedObject[], tree: RetainerNode[] = []): string {
  const holder = object('com.acme.Caches', '0xf0001000', 230 * MB);
  const suspect: LeakSuspect = {
    kind: 'object',
    subject: holder,
    className: holder.className,
    instances: 1,
    retained: holder.retained,
    share: 0.9,
    accumulation: { ...holder, dominated: 5, ...(biggest.length > 0 ? { biggest } : {}) },
  };
  const summary: MemorySummary = {
    objects: 1000,
    reachableObjects: 1000,
    shallowBytes: 256 * MB,
    retainedBytes: 256 * MB,
    unreachable: { objects: 0, bytes: 0 },
    roots: {},
    missingReferences: 0,
    dominators: [],
    classes: [],
    suspects: [suspect],
  };
  return renderMemoryText({ source: 'heap.hprof', summary, tree, warnings: [] });
}

describe('memory report: a suspect whose memory does not gather in one object', () => {
  test('names the biggest objects it holds, with their sizes', () => {
    const text = report([object('java.util.HashMap', '0xf0004000', 120 * MB), object('java.util.\x1b[2Jconcurrent.ConcurrentHashMap', '0xf0005000', 60 * MB)]);
    expect(text).toMatch(/it directly holds 5 objects, none of which retains most of it; the biggest java\.util\.HashMap 0xf0004000 \(120(\.0)? MiB\), /);
    expect(text).toMatch(/, java\.util\.(\[2J)?concurrent\.ConcurrentHashMap 0xf0005000 \(60(\.0)? MiB\)\n/);
    // A class name from the dump is untrusted: no escape sequence reaches the terminal.
    expect(text).not.toContain('\x1b');
  });

  test('control: nothing it holds is big enough to name', () => {
    expect(report([])).toMatch(/it directly holds 5 objects, none of which retains most of it\n/);
  });
});

// Issue 46: the suspects came after the dominator tree, 110 lines down on a real heap.
test('memory report: the leak suspects come first, then the dominator tree', () => {
  const node = (o: RetainedObject): RetainerNode => ({ object: o, children: [], more: { objects: 0, bytes: 0 } });
  const text = report([], [node(object('com.acme.Caches', '0xf0001000', 230 * MB)), node(object('java.lang.Thread', '0xf0002000', 10 * MB))]);
  const suspects = text.indexOf('\nLeak suspects\n');
  const tree = text.indexOf('\nBiggest retainers');
  expect(suspects).toBeGreaterThan(0);
  expect(tree).toBeGreaterThan(suspects);
  expect(text.slice(tree)).toContain('java.lang.Thread 0xf0002000');
});

// Issue 49: memory opens with the answer; the class table comes before the tree, and how the figures were made comes last.
test('memory report: the class table before the tree, the heap details last', () => {
  const node = (o: RetainedObject): RetainerNode => ({ object: o, children: [], more: { objects: 0, bytes: 0 } });
  const text = report([], [node(object('com.acme.Caches', '0xf0001000', 230 * MB))]);
  const at = (s: string) => text.indexOf(s);
  expect(at('\nLeak suspects\n')).toBeGreaterThan(0);
  expect(at('\nClasses by retained size')).toBeGreaterThan(at('\nLeak suspects\n'));
  expect(at('\nBiggest retainers')).toBeGreaterThan(at('\nClasses by retained size'));
  expect(at('\nHeap details\n')).toBeGreaterThan(at('\nBiggest retainers'));
  expect(text.slice(at('\nHeap details\n'))).toMatch(/ {2}unreachable \(left out of the tree\): 0 objects/);
});
