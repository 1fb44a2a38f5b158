/**
 * The same file given twice (its path repeated, a hard link, a symbolic link, a file also inside the
 * directory given, `-` twice) is one input, with a note: read twice, one dump would become a series
 * of two identical dumps.
 */
import { copyFileSync, linkSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { collectInputs } from '../../src/input/collect-inputs.js';
import { FIXTURES, scratchDir } from '../helpers.js';

describe('the same file given twice is read once', () => {
  const dir = scratchDir('dup');
  const dump = join(dir, 'dump-1.txt');
  copyFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), dump);
  linkSync(dump, join(dir, 'hard-link.txt'));
  symlinkSync(dump, join(dir, 'soft-link.txt'));
  const folder = join(dir, 'incident');
  mkdirSync(folder);
  copyFileSync(dump, join(folder, 'dump-2.txt'));

  const collect = async (paths: string[]) => {
    const dropped: Array<[string, string]> = [];
    const inputs = await collectInputs(paths, (path, why) =>
      dropped.push([path, why === 'standard input given twice: read once' ? '-' : /the same file as (.*): read once/.exec(why)![1]!]),
    );
    return { inputs: inputs.map((i) => i.path), dropped };
  };

  it('a repeated path, a hard link and a symbolic link are the first path', async () => {
    const { inputs, dropped } = await collect([dump, dump, join(dir, 'hard-link.txt'), join(dir, 'soft-link.txt')]);
    expect(inputs).toEqual([dump]);
    expect(dropped).toEqual([
      [dump, dump],
      [join(dir, 'hard-link.txt'), dump],
      [join(dir, 'soft-link.txt'), dump],
    ]);
  });

  it('standard input twice is read once', async () => {
    const { inputs, dropped } = await collect(['-', '-']);
    expect(inputs).toEqual(['-']);
    expect(dropped).toEqual([['-', '-']]);
  });

  it('a file and the directory that holds it: the file once', async () => {
    const inside = join(folder, 'dump-2.txt');
    const { inputs, dropped } = await collect([inside, folder]);
    expect(inputs).toEqual([inside]);
    expect(dropped).toEqual([[inside, inside]]);
  });

  it('negative control: two copies with the same bytes are two files (two dumps of a series may be alike)', async () => {
    const { inputs, dropped } = await collect([dump, join(folder, 'dump-2.txt')]);
    expect(inputs).toHaveLength(2);
    expect(dropped).toEqual([]);
  });
});

describe('links inside an incident directory', () => {
  it('to directories are followed while they stay inside it; a link to a directory out of it is noted and not followed', async () => {
    const root = scratchDir('links');
    const incident = join(root, 'incident');
    mkdirSync(incident);
    copyFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), join(incident, 'dump-1.txt'));
    mkdirSync(join(incident, 'more'));
    symlinkSync(join(incident, 'more'), join(incident, 'inside'));
    copyFileSync(join(FIXTURES, 'deadlock', 'dump-1.txt'), join(incident, 'more', 'dump-2.txt'));
    symlinkSync('/', join(incident, 'whole-disk'));
    const skipped: string[] = [];
    const inputs = await collectInputs([incident], (path, why) => skipped.push(`${path}: ${why}`));
    expect(inputs.map((i) => i.path)).toEqual([join(incident, 'dump-1.txt'), join(incident, 'inside', 'dump-2.txt')]);
    expect(skipped).toEqual([`${join(incident, 'whole-disk')}: a link to /, outside the directory given: not followed`]);
  });
});
