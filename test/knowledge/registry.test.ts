/**
 * The registry's lint: every row of src/knowledge has a meaning and a public source, no source points
 * at a document outside the repository, no match has two conflicting roles, and every match has the
 * form its role is matched in.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { frameIndexOf, KNOWLEDGE, lookupFrame, nameMatcher } from '../../src/knowledge/index.js';
import { MATCH_KIND, type Role } from '../../src/knowledge/row.js';
import { SOURCES } from '../../src/knowledge/sources.js';
import { parseFrameText } from '../../src/threads/frame-text.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Roles one match may hold at once: they say different things about the same frame, never opposite things. */
const COMPATIBLE: ReadonlyArray<readonly [Role, Role]> = [
  ['pool-loop', 'idle'], // a pool's run loop is where its worker waits between tasks (FJP.runWorker, Quartz, NetBeans)
  ['event-loop', 'idle'], // an I/O thread's loop is its wait for events (XNIO)
  ['lease-wait', 'pressure'], // a Semaphore acquire: a lease, and work held up
  ['blocking-io', 'ambiguous'], // a socket read: blocking I/O, idle or work by where it sits
  ['blocking-io', 'pressure'], // a socket write: blocking I/O, and work held up by a slow peer
  ['request', 'boundary'],
];

const compatible = (a: Role, b: Role) => a === b || COMPATIBLE.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

/** The citations of a source: `KEY` or `KEY (detail)`, `; `-separated (a detail may hold `;` inside its parentheses). */
function citations(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ';' && depth === 0) {
      out.push(source.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(source.slice(start).trim());
  return out;
}

describe('the knowledge registry', () => {
  it('has rows of every role, each with a match, a meaning and a source', () => {
    expect(KNOWLEDGE.length).toBeGreaterThan(300);
    for (const role of Object.keys(MATCH_KIND) as Role[])
      expect(
        KNOWLEDGE.some((r) => r.role === role),
        role,
      ).toBe(true);
    for (const r of KNOWLEDGE) {
      expect(r.match.trim(), JSON.stringify(r)).not.toBe('');
      expect(r.means.trim().length, r.match).toBeGreaterThan(3);
      expect(r.source.trim(), r.match).not.toBe('');
    }
  });

  it('cites only public sources of sources.ts, never a document outside the repository', () => {
    for (const r of KNOWLEDGE) {
      for (const c of citations(r.source)) {
        const key = /^([\w-]+)(?: \(.+\))?$/s.exec(c)?.[1];
        expect(key, `${r.match}: "${c}" is not KEY or KEY (detail)`).toBeDefined();
        expect(SOURCES[key!], `${r.match}: unknown source key ${key}`).toBeDefined();
        expect(c, r.match).not.toMatch(/\.\.\/|shared\/|LABELS|thread-activity\.md|\.md\b/);
      }
    }
    for (const [key, s] of Object.entries(SOURCES)) {
      const inRepo = /^(?:docs|fixtures)\//.test(s.at);
      const publicAt = /^https?:\/\/\S+$/.test(s.at) || /^[\w.-]+\/[\w.-]+(?::\s\S.*)?$/.test(s.at);
      expect(inRepo || publicAt, `${key}: ${s.at}`).toBe(true);
      if (inRepo) expect(existsSync(join(ROOT, s.at)), `${key}: ${s.at} is not in the repository`).toBe(true);
      expect(s.at, key).not.toMatch(/\.\.\/|shared\//);
    }
  });

  it('gives no match two conflicting roles', () => {
    const byMatch = new Map<string, Set<Role>>();
    for (const r of KNOWLEDGE) {
      const set = byMatch.get(r.match) ?? new Set<Role>();
      set.add(r.role);
      byMatch.set(r.match, set);
    }
    for (const [match, roles] of byMatch) {
      const list = [...roles];
      for (const a of list) for (const b of list) expect(compatible(a, b), `${match}: ${a} and ${b}`).toBe(true);
    }
  });

  it('writes every match in the form of its role', () => {
    for (const r of KNOWLEDGE) {
      const kind = MATCH_KIND[r.role];
      if (kind === 'frame') expect(r.match, r.role).toMatch(/^(?:[\w$]+\.)+(?:[\w$<>]+|[\w$]*\*)$/);
      else if (kind === 'package') expect(r.match, r.role).toMatch(/^(?:\w+\.)+\*$/);
      else {
        expect(() => new RegExp(r.match), r.match).not.toThrow();
        if (kind === 'thread-name') expect(r.match.startsWith('^'), r.match).toBe(true);
      }
    }
  });

  it('finds a frame by its row, also in a shaded copy, and not a near miss', () => {
    const waits = frameIndexOf('idle');
    const frame = (text: string) => parseFrameText(text);
    expect(lookupFrame(waits, frame('io.netty.channel.nio.NioEventLoop.select(NioEventLoop.java:1)'))?.match).toBe('io.netty.channel.nio.NioEventLoop.select');
    expect(lookupFrame(waits, frame('io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoop.select(NioEventLoop.java:1)'))?.match).toBe(
      'io.netty.channel.nio.NioEventLoop.select',
    );
    expect(lookupFrame(waits, frame('com.example.MyNioEventLoop.select(MyNioEventLoop.java:1)'))).toBeUndefined();
    const names = nameMatcher('gc-thread-name');
    expect(names('GC Thread#3')?.role).toBe('gc-thread-name');
    expect(names('GC-Helper-for-orders')).toBeUndefined();
  });
});
