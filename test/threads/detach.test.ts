import { describe, expect, it } from 'vitest';

import { detach, detachAll } from '../../src/threads/dump-builder.js';

describe('detachAll', () => {
  it('gives back every string as it was, in order, short and long', () => {
    const chunk = `"${'DubboServerHandler-127.0.0.1:20880-thread-7'}" tid=0x00007f7de0017f60 "main" ""`;
    const texts = [chunk.slice(1, 44), chunk.slice(50, 68), chunk.slice(70, 74), chunk.slice(76, 76)];
    expect(detachAll(texts)).toEqual(['DubboServerHandler-127.0.0.1:20880-thread-7', '0x00007f7de0017f60', 'main', '']);
    expect(detachAll(texts)).toEqual(texts.map(detach));
  });

  it('copies one by one when a string holds a newline (joining would shift the rest)', () => {
    const texts = ['first name of a thread', 'two\nlines', 'last name of a thread'];
    expect(detachAll(texts)).toEqual(texts);
  });

  it('gives nothing for nothing', () => {
    expect(detachAll([])).toEqual([]);
  });
});
