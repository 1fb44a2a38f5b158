/** Evidence names its file by its own name once the header has the full path, unless another input has that name. */
import { describe, expect, it } from 'vitest';

import { shortSourceNames } from '../../src/report/source-location.js';

describe('short names for the input files', () => {
  it('a file by its own name when no other input has it, by its path when one does', () => {
    const short = shortSourceNames([
      '/var/incidents/a/threads-1.txt',
      '/var/incidents/a/heap.hprof.gz',
      '/var/incidents/b/threads-1.txt',
      'C:\\dumps\\app.log',
    ]);
    expect(short('/var/incidents/a/heap.hprof.gz')).toBe('heap.hprof.gz');
    expect(short('/var/incidents/a/threads-1.txt')).toBe('/var/incidents/a/threads-1.txt');
    expect(short('/var/incidents/b/threads-1.txt')).toBe('/var/incidents/b/threads-1.txt');
    expect(short('C:\\dumps\\app.log')).toBe('app.log');
    // The same file given twice is one input: still its own name.
    expect(shortSourceNames(['x/dump.txt', 'x/dump.txt'])('x/dump.txt')).toBe('dump.txt');
    // A path the header did not list (standard input's name, a path ending in a slash) stays as it is.
    expect(shortSourceNames(['x/dump.txt'])('-')).toBe('-');
    expect(shortSourceNames(['dir/'])('dir/')).toBe('dir/');
  });
});
