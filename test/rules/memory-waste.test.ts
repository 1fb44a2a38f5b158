/**
 * memory-waste: the waste a real JVM made on purpose (fixtures/heap/memory-beyond/waste), found by
 * the memory analysis as `memory` runs it, judged by the rule; the controls: the same heap under the
 * default bytes threshold (a 6 MB heap wastes too little to matter), the JVM that made none
 * (waste-control: what is left is the JDK's own, not counted), and a summary without waste.
 */
import { join } from 'node:path';

import { beforeAll, describe, test } from 'vitest';

import { analyseMemory } from '../../src/heap/memory/analyse-memory.js';
import type { MemorySummary } from '../../src/model/memory.js';
import type { Model } from '../../src/model/model.js';
import { check, modelOf } from './build.js';

const BASE = 'fixtures/heap/memory-beyond';

const withSummary = (summary: MemorySummary): Model => modelOf([{ threads: [] }], () => ({ memory: [{ input: 'heap.hprof', summary }] }));

describe('memory-waste', { timeout: 120_000 }, () => {
  let waste: MemorySummary;
  let control: MemorySummary;
  beforeAll(async () => {
    const summaryOf = async (s: string) => (await analyseMemory(join(BASE, s, 'heap.hprof.gz'), { waste: true })).summary;
    waste = await summaryOf('waste');
    control = await summaryOf('waste-control');
  });

  test('the waste a JVM made is more than a tenth of its heap: a warning that names each big kind and the field that keeps it', () => {
    check('memory-waste', {
      name: 'waste, no bytes threshold',
      model: () => withSummary(waste),
      options: { minWastedBytes: 0 },
      expect: [
        {
          subject: 'heap.hprof',
          severity: 'warning',
          // Every kind of at least 5% of the heap, most bytes first, each with its biggest holder.
          facts: {
            kinds: ['zeroArrays', 'sparseCollections', 'duplicateStrings', 'emptyCollections'],
            topHolders: [
              'com.example.catalog.Catalog.THUMBNAIL_BUFFERS (static)',
              'com.example.catalog.PriceIndex.byRegion',
              'com.example.catalog.Product.status',
              'com.example.catalog.Product.attributes',
            ],
          },
          message: new RegExp(
            'on nothing that the program can change: .* of all-zero arrays \\(\\d+ objects\\), ' +
              'most kept by com\\.example\\.catalog\\.Catalog\\.THUMBNAIL_BUFFERS \\(static\\); .* of sparse collections',
          ),
        },
      ],
    });
  });

  test('the same heap under the default thresholds: too few bytes to matter, silent', () => {
    check('memory-waste', { name: 'waste, defaults', model: () => withSummary(waste), expect: [] });
  });

  test("the JVM that made none: the JDK's own waste is not counted, silent even with no bytes threshold", () => {
    check('memory-waste', { name: 'control', model: () => withSummary(control), options: { minWastedBytes: 0 }, expect: [] });
  });

  test('a heap whose waste was not looked for (a V8 snapshot, a heap not analysed): silent', () => {
    const { waste: _none, ...without } = waste;
    check('memory-waste', { name: 'no waste', model: () => withSummary(without), options: { minWastedBytes: 0 }, expect: [] });
  });
});
