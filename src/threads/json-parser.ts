/**
 * JSON thread dumps, read with stream-json so a large file is never held whole:
 *   - JDK 21+ `jcmd <pid> Thread.dump_to_file -format=json` (`threadDump.threadContainers[].threads[]`;
 *     JDK 25 adds `state` and lock fields), and
 *   - Spring Boot `/actuator/threaddump` (`threads[]`, Jackson's rendering of ThreadInfo), possibly
 *     preceded by HTTP response headers when saved with `curl -i`.
 */
import { gen, none } from 'stream-chain';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamValues } from 'stream-json/streamers/stream-values.js';

import type { FrameLock, LockRef, ThreadDumpFile, ThreadEntry } from '../model/thread-dump.js';
import { FrameInterner, newThreadDump, newThreadEntry, recordUnparsed, threadCountMismatch } from './dump-builder.js';
import { javaStateNamed, parseLockRef } from './frame-text.js';

export type JsonDumpKind = 'jcmd-json' | 'actuator-json';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

/**
 * Thread objects, each container's `threadCount` (what the dump declares, to reconcile with), and the
 * dump's `time`: a second `time` is a second `threadDump` object (a key repeated), a dump of its own.
 */
const JCMD_FILTER = /^(?:threadDump\.threadContainers\.\d+\.(?:threads\.\d+|threadCount)|threadDump\.time)$/;
const ACTUATOR_FILTER = /^threads\.\d+$/;

interface JsonHeaderFacts {
  readonly time?: string;
  readonly runtimeVersion?: string;
  readonly processId?: string;
}

/** Scalar facts near the top of a jcmd JSON dump, read from the head text so the stream can skip them. */
function readJcmdHeaderFacts(head: string): JsonHeaderFacts {
  const pick1 = (key: string): string | undefined => {
    const m = new RegExp(`"${key}"\\s*:\\s*"?([^",}]*)"?`).exec(head);
    return m ? m[1] : undefined;
  };
  const facts: { time?: string; runtimeVersion?: string; processId?: string } = {};
  const time = pick1('time');
  if (time !== undefined) facts.time = time;
  const rv = pick1('runtimeVersion');
  if (rv !== undefined) facts.runtimeVersion = rv;
  const pid = pick1('processId');
  if (pid !== undefined) facts.processId = pid;
  return facts;
}

/** Drops HTTP response headers (`HTTP/1.1 200`, `Content-Type: ...`, blank line) before the JSON body. */
async function* skipToJson(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let started = false;
  for await (const chunk of chunks) {
    if (started) {
      yield chunk;
      continue;
    }
    const brace = chunk.search(/[{[]/);
    if (brace < 0) continue;
    started = true;
    yield chunk.slice(brace);
  }
}

export async function parseJsonThreadDump(source: string, kind: JsonDumpKind, chunks: AsyncIterable<string>, head: string): Promise<ThreadDumpFile> {
  const frames = new FrameInterner();
  let dump = newThreadDump(source, 0, kind, 1);
  const dumps = [dump];
  let times = 0;
  if (kind === 'jcmd-json') {
    const facts = readJcmdHeaderFacts(head);
    if (facts.time !== undefined) {
      dump.timestamp = facts.time;
      dump.timestampIso = facts.time;
    }
    if (facts.runtimeVersion !== undefined) dump.jvm = facts.runtimeVersion;
  }
  // The pipeline is called chunk by chunk (no Node streams in between), so every thread handed
  // out before a parse error is kept, and a failing input ends the parse instead of hanging it.
  const tokensToThreads = gen(parser({ streamValues: false }), pick({ filter: kind === 'jcmd-json' ? JCMD_FILTER : ACTUATOR_FILTER }), streamValues());
  let declared: number | undefined;
  const take = (item: unknown): void => {
    const value = (item as { value: Json }).value;
    if (typeof value === 'string' || typeof value === 'number') {
      const n = Number(value);
      // A container's threadCount is a count; the dump's time is not a number.
      if (Number.isInteger(n) && n >= 0) declared = (declared ?? 0) + n;
      else if (typeof value === 'string' && ++times > 1) {
        // A repeated `threadDump` key: JSON.parse would keep the last; both are kept, apart.
        dump = newThreadDump(source, dumps.length, kind, 1);
        dump.timestamp = value;
        dump.timestampIso = value;
        dumps.push(dump);
      }
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const th = kind === 'jcmd-json' ? jcmdThread(value, frames) : actuatorThread(value, frames);
    if (th) dump.threads.push(th);
    else recordUnparsed(dump, 0, JSON.stringify(value).slice(0, 200));
  };
  const warnings: string[] = [];
  try {
    for await (const chunk of skipToJson(chunks)) for await (const item of tokensToThreads(chunk)) take(item);
    // Flushing with `none` ends the token stream (stream-chain's protocol; its typing only admits strings).
    for await (const item of tokensToThreads(none as unknown as string)) take(item);
  } catch (e) {
    // A cut or damaged file: the threads read before the damage are kept.
    const reason = ((e as Error).message ?? String(e)).split('\n')[0];
    warnings.push(`the JSON ends early or is damaged after ${dump.threads.length} threads (${reason}); the threads before it were used`);
  }
  if (dumps.length > 1)
    warnings.push(`the JSON holds ${dumps.length} "threadDump" objects under one key (a repeated key); each is read as a dump of its own, not merged`);
  if (declared !== undefined && warnings.length === 0 && dumps.length === 1) {
    dump.declaredThreads = { count: declared, what: 'threads', by: "the thread containers' threadCount" };
    const mismatch = threadCountMismatch(dump, () => true);
    if (mismatch !== undefined) warnings.push(mismatch);
  }
  return { source, dumps, outsideLines: 0, totalLines: 0, warnings };
}

function str(v: Json | undefined): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** jcmd JSON: `{tid, name, stack: ["java.base/java.lang.Thread.sleep(Thread.java:1)"], state?, virtual?, ...}`. */
function jcmdThread(o: JsonObject, frames: FrameInterner): ThreadEntry | null {
  const name = str(o['name']);
  if (name === undefined) return null;
  const th = newThreadEntry(name, 0);
  const tid = str(o['tid']);
  if (tid !== undefined) th.javaId = tid;
  const state = str(o['state']);
  th.state = (state !== undefined ? javaStateNamed(state) : undefined) ?? th.state;
  if (o['virtual'] === true || o['virtual'] === 'true') th.virtual = true;
  const carrier = str(o['carrier']);
  if (carrier !== undefined) th.headerState = `carrier #${carrier}`;
  const stack = o['stack'];
  if (Array.isArray(stack)) {
    for (const s of stack) if (typeof s === 'string') th.frames.push(frames.intern(s));
  }
  // JDK 25+ lock information (JDK-8356870, JDK-8365057).
  const parkBlocker = o['parkBlocker'];
  if (parkBlocker !== undefined && parkBlocker !== null) {
    const text = typeof parkBlocker === 'object' && !Array.isArray(parkBlocker) ? str(parkBlocker['object']) : str(parkBlocker);
    const lock = text !== undefined ? parseLockRef(text) : null;
    th.locks.push({ frameIndex: 0, kind: 'parking', lock });
    if (typeof parkBlocker === 'object' && !Array.isArray(parkBlocker)) {
      const owner = str(parkBlocker['owner']);
      if (owner !== undefined) th.lockOwnerId = owner;
    }
    if (th.stateDetail === undefined) th.stateDetail = 'parking';
  }
  const blockedOn = str(o['blockedOn']);
  if (blockedOn !== undefined) th.locks.push({ frameIndex: 0, kind: 'blocked-on', lock: parseLockRef(blockedOn) });
  const waitingOn = str(o['waitingOn']);
  if (waitingOn !== undefined) th.locks.push({ frameIndex: 0, kind: 'waiting-on', lock: parseLockRef(waitingOn) });
  const owned = o['monitorsOwned'];
  if (Array.isArray(owned)) {
    for (const entry of owned) {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) continue;
      const depth = typeof entry['depth'] === 'number' ? entry['depth'] : Number(str(entry['depth']) ?? 0);
      const locks = entry['locks'];
      if (!Array.isArray(locks)) continue;
      for (const l of locks) {
        const text = str(l);
        if (text !== undefined) th.locks.push({ frameIndex: depth, kind: 'locked', lock: parseLockRef(text) });
      }
    }
  }
  return th;
}

function lockFromInfo(v: Json | undefined): LockRef | null {
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) return null;
  const className = str(v['className']) ?? '';
  const hash = v['identityHashCode'];
  const id = typeof hash === 'number' ? (hash >>> 0).toString(16) : (str(hash) ?? '');
  return { id, className };
}

/** Spring Boot actuator: Jackson's ThreadInfo. */
function actuatorThread(o: JsonObject, frames: FrameInterner): ThreadEntry | null {
  const name = str(o['threadName']);
  if (name === undefined) return null;
  const th = newThreadEntry(name, 0);
  const id = str(o['threadId']);
  if (id !== undefined) th.javaId = id;
  const state = str(o['threadState']);
  th.state = (state !== undefined ? javaStateNamed(state) : undefined) ?? th.state;
  if (o['daemon'] === true) th.daemon = true;
  if (typeof o['priority'] === 'number') th.priority = o['priority'];
  if (o['inNative'] === true) th.stateDetail = 'in native';
  const trace = o['stackTrace'];
  if (Array.isArray(trace)) {
    for (const f of trace) {
      if (f === null || typeof f !== 'object' || Array.isArray(f)) continue;
      const cls = str(f['className']) ?? '?';
      const method = str(f['methodName']) ?? '?';
      const file = str(f['fileName']);
      const line = typeof f['lineNumber'] === 'number' ? f['lineNumber'] : -1;
      const loc = f['nativeMethod'] === true ? 'Native Method' : file === undefined ? 'Unknown Source' : line >= 0 ? `${file}:${line}` : file;
      th.frames.push(frames.intern(`${cls}.${method}(${loc})`));
    }
  }
  const lock = lockFromInfo(o['lockInfo']);
  if (lock) {
    const top = th.frames[0]?.qualified ?? '';
    const kind: FrameLock['kind'] = th.state === 'BLOCKED' ? 'blocked-on' : /\.park(?:Nanos|Until)?$|Unsafe\.park$/.test(top) ? 'parking' : 'waiting-on';
    th.locks.push({ frameIndex: 0, kind, lock });
  }
  const ownerName = str(o['lockOwnerName']);
  if (ownerName !== undefined) th.lockOwnerName = ownerName;
  if (typeof o['lockOwnerId'] === 'number' && o['lockOwnerId'] >= 0) th.lockOwnerId = String(o['lockOwnerId']);
  const monitors = o['lockedMonitors'];
  if (Array.isArray(monitors)) {
    for (const m of monitors) {
      const l = lockFromInfo(m);
      if (!l || m === null || typeof m !== 'object' || Array.isArray(m)) continue;
      const depth = typeof m['lockedStackDepth'] === 'number' ? m['lockedStackDepth'] : 0;
      th.locks.push({ frameIndex: Math.max(0, depth), kind: 'locked', lock: l });
    }
  }
  const syncs = o['lockedSynchronizers'];
  if (Array.isArray(syncs)) {
    for (const s of syncs) {
      const l = lockFromInfo(s);
      if (l) th.ownableSynchronizers.push(l);
    }
  }
  return th;
}
