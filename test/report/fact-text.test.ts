/** A finding's facts in words (fact-text.ts): labels, units, rounding, and what is left out. */
import { describe, expect, it } from 'vitest';

import { factRows as rowsWithKeys } from '../../src/report/fact-text.js';

/** What a person reads of each row (each keeps its machine key too, for the UI's links: checked below). */
const factRows = (facts: Parameters<typeof rowsWithKeys>[0]) => rowsWithKeys(facts).map(({ label, value }) => ({ label, value }));

describe('facts as a person reads them', () => {
  it('each row keeps the key it was read from', () => {
    expect(rowsWithKeys({ queueSize: 3, dumps: [0, 2] })).toEqual([
      { key: 'queueSize', label: 'queue', value: '3' },
      { key: 'dumps', label: 'in dumps', value: '#0, #2' },
    ]);
  });

  it('labels in words, values with their units, rounded for reading', () => {
    expect(
      factRows({
        queueSize: 1945,
        cpuMsDelta: 2227.6099999999997,
        spanSeconds: 5,
        retainedBytes: 3_355_443,
        callsPerSecond: 1.3333333,
        coreShare: 0.9994,
        topActivityThreads: 35,
        someNewFact: 0.123456,
      }),
    ).toEqual([
      { label: 'queue', value: '1,945' },
      { label: 'CPU used between the first and last dump', value: '2.23 s' },
      { label: 'time between the first and last dump', value: '5 s' },
      { label: 'retained bytes', value: '3.2 MiB' },
      { label: 'calls per second', value: '1.33/s' },
      { label: 'CPU', value: '99.9 % of a core' },
      { label: 'threads doing it', value: '35' },
      { label: 'some new fact', value: '0.123' },
    ]);
  });

  it('the drain time with its bound, rate and basis in one row; their own keys are not rows', () => {
    const rows = factRows({ drainSeconds: 1556, drainSecondsIs: 'an upper bound', drainTasksPerSecond: 1.25, drainBasis: '5 calls finished over 4.0 s' });
    expect(rows).toEqual([{ label: 'drain time', value: '≤ 26 min at 1.25 tasks/s (5 calls finished over 4.0 s)' }]);
    // Without a drain time, the rate stands on its own.
    expect(factRows({ drainSeconds: null, drainTasksPerSecond: 0 })).toEqual([{ label: 'drain rate', value: '0 tasks/s' }]);
  });

  it('nothing for null, false or an empty list; yes for true; lists joined', () => {
    expect(factRows({ runaway: false, drained: null, callers: [], sameInEveryDump: true, dumps: [0, 1, 2], holders: ['a', 'b'] })).toEqual([
      { label: 'the same in every dump', value: 'yes' },
      { label: 'in dumps', value: '#0, #1, #2' },
      { label: 'holders', value: 'a, b' },
    ]);
  });
});
