/**
 * A thread that the memory analysis lists (a dominator, a leak suspect, a node of the UI's tree) is
 * named by the name its Thread object holds, as the heap's load read it; other objects are left as
 * they are. On a real JDK 17 heap (fixtures/heap/jdk17).
 */
import { describe, expect, it } from 'vitest';

import { ANALYSIS_PLAN } from '../../src/heap/analysis-plan.js';
import { threadNameOf } from '../../src/heap/heap-values.js';
import { HeapView } from '../../src/heap/heap-view.js';
import { loadHprof } from '../../src/heap/hprof/hprof-loader.js';
import { withThreadNames } from '../../src/heap/memory/finish.js';
import { shareText } from '../../src/model/count-text.js';
import type { HeapMemoryModel, RetainedObject } from '../../src/model/memory.js';
import { retainedObjectName } from '../../src/model/memory.js';

describe('threads in the memory analysis', { timeout: 60_000 }, () => {
  it('are named in dominators, suspects and the tree; a class object and a map are not', async () => {
    const view = new HeapView(await loadHprof('fixtures/heap/jdk17/heap.hprof.gz', ANALYSIS_PLAN));
    const threads = view.instancesOf('java.lang.Thread', { subclasses: true });
    const main = threads.find((t) => threadNameOf(view, t) === 'main')!;
    expect(main).toBeDefined();
    const object = (id: number, className: string, extra: Partial<RetainedObject> = {}): RetainedObject => ({
      index: 0,
      id: `0x${id.toString(16)}`,
      className,
      shallow: 16,
      retained: 1000,
      ...extra,
    });
    const thread = object(main.id, 'java.lang.Thread');
    const map = view.instancesOf('java.util.HashMap')[0]!;
    const other = object(map.id, 'java.util.HashMap');
    const cls = object(main.id, 'java.lang.Class', { describes: 'Foo' });
    const model: HeapMemoryModel = {
      input: 'heap',
      summary: {
        objects: 1,
        reachableObjects: 1,
        shallowBytes: 1,
        retainedBytes: 1,
        unreachable: { objects: 0, bytes: 0 },
        roots: {},
        missingReferences: 0,
        dominators: [thread, other, cls],
        classes: [],
        suspects: [
          {
            kind: 'object',
            className: 'java.lang.Thread',
            instances: 1,
            retained: 1000,
            share: 0.5,
            subject: thread,
            accumulation: { ...other, dominated: 3 },
          },
        ],
      },
      tree: [{ object: thread, children: [{ object: other, children: [], more: { objects: 0, bytes: 0 } }], more: { objects: 0, bytes: 0 } }],
    };
    const named = withThreadNames(model, view);
    const s = named.summary!;
    expect(s.dominators.map((o) => retainedObjectName(o))).toEqual(['java.lang.Thread "main"', 'java.util.HashMap', 'class Foo']);
    expect(retainedObjectName(s.suspects[0]!.subject, true)).toBe(`java.lang.Thread "main" 0x${main.id.toString(16)}`);
    expect(s.suspects[0]!.accumulation.threadName).toBeUndefined();
    expect(s.suspects[0]!.accumulation.dominated).toBe(3);
    expect(named.tree![0]!.object.threadName).toBe('main');
    expect(named.tree![0]!.children[0]!.object.threadName).toBeUndefined();
  });

  it('a share is never rounded up to the whole', () => {
    expect(shareText(9997, 10000)).toBe('99.9%');
    expect(shareText(10000, 10000)).toBe('100.0%');
    expect(shareText(1234, 10000)).toBe('12.3%');
    expect(shareText(1, 0)).toBe('0.0%');
  });
});
