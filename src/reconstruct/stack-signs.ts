/**
 * What stacks alone say about the concurrency machinery (java-internals.md, sections 1-4): threads
 * waiting for a connection lease, shutdown hooks at work, threads inside a service method. Data
 * (frame patterns per kind) plus small predicates over a thread's frames.
 */
import { frameIndexOf, lookupFrame, type RowOf, rowsOf } from '../knowledge/index.js';
import type { ConnectionPoolModel } from '../model/model.js';
import type { StackFrame, ThreadEntry } from '../model/thread-dump.js';
import { perStack } from '../threads/per-stack.js';

/** How many top frames are looked at for a wait: the lease method sits near the top of a parked thread. */
const WAIT_DEPTH = 16;

/** A pool's lease method, as the registry knows it: the kind of pool and its name. */
export type LeaseWaitSign = RowOf<'lease-wait'>;

const LEASES = frameIndexOf('lease-wait');
const HOOKS = frameIndexOf('shutdown-hook');
const CLIENT_CALLS = frameIndexOf('client-call');
const REQUESTS = frameIndexOf('request');
const IDLE = frameIndexOf('idle');

/** What one frame says, computed once per frame object (frames are interned per parse, so this is per distinct frame). */
interface FrameSigns {
  readonly lease: LeaseWaitSign | undefined;
  readonly hook: HookKind | undefined;
  readonly httpCall: boolean;
  readonly dubboRequest: boolean;
  readonly getTask: boolean;
}

const signsCache = new WeakMap<StackFrame, FrameSigns>();

function signsOf(f: StackFrame): FrameSigns {
  let s = signsCache.get(f);
  if (s === undefined) {
    s = {
      lease: lookupFrame(LEASES, f),
      hook: lookupFrame(HOOKS, f)?.detail.hook,
      httpCall: lookupFrame(CLIENT_CALLS, f) !== undefined,
      dubboRequest: lookupFrame(REQUESTS, f)?.detail?.server === 'Dubbo',
      getTask: lookupFrame(IDLE, f)?.detail?.outsideTaskOnly === true,
    };
    signsCache.set(f, s);
  }
  return s;
}

/** The pool kind whose lease this thread is parked waiting for, if any. */
export function leaseWaitOf(th: ThreadEntry): LeaseWaitSign | undefined {
  return th.state === 'RUNNABLE' ? undefined : leaseFrameOnTop(th.frames);
}

const leaseFrameOnTop = perStack((frames) => {
  const n = Math.min(frames.length, WAIT_DEPTH);
  for (let i = 0; i < n; i++) {
    const lease = signsOf(frames[i]!).lease;
    if (lease !== undefined) return lease;
  }
  return undefined;
});

export function inHttpCall(th: ThreadEntry): boolean {
  return leaseWaitOf(th) === undefined && hasHttpCallFrame(th.frames);
}

const hasHttpCallFrame = perStack((frames) => frames.some((f) => signsOf(f).httpCall));

export type HookKind = 'dubbo' | 'spring' | 'jvm';

export function shutdownHookKind(th: ThreadEntry): HookKind | undefined {
  return th.name === 'DubboShutdownHook' ? 'dubbo' : hookOfFrames(th.frames);
}

const hookOfFrames = perStack((frames) => {
  // A thread with Dubbo's frames is Dubbo's hook even when the JVM's are below.
  let found: HookKind | undefined;
  for (const f of frames) {
    const hook = signsOf(f).hook;
    if (hook === 'dubbo') return hook;
    if (hook === 'spring' || (hook === 'jvm' && found === undefined)) found = hook;
  }
  return found;
});

/** A Dubbo provider thread handling a request (any version), not waiting in its pool for the next. */
export function handlingDubboRequest(th: ThreadEntry): boolean {
  return hasDubboRequestFrames(th.frames);
}

const hasDubboRequestFrames = perStack((frames) => {
  let request = false;
  for (const f of frames) {
    const s = signsOf(f);
    if (s.getTask) return false;
    request ||= s.dubboRequest;
  }
  return request;
});

const LIMIT_FILTER = { executes: '.rpc.filter.ExecuteLimitFilter.invoke', actives: '.rpc.filter.ActiveLimitFilter.invoke' } as const;

/**
 * Is this thread inside the service method? Its stack must show the method itself, in the service's
 * implementation (a class named after the service, like `DemoServiceImpl` for `DemoService`) or
 * below the limit filter that counts it.
 */
export function insideServiceMethod(th: ThreadEntry, service: string, method: string, filter: 'executes' | 'actives'): boolean {
  const simple = service.slice(service.lastIndexOf('.') + 1);
  let filterAt = -1;
  let methodAt = -1;
  th.frames.forEach((f, i) => {
    if (filterAt < 0 && f.qualified.endsWith(LIMIT_FILTER[filter])) filterAt = i;
    if (methodAt < 0 && f.method === method) {
      const cls = f.className.slice(f.className.lastIndexOf('.') + 1);
      if (cls.startsWith(simple) || f.className === service) methodAt = i;
    }
  });
  if (methodAt >= 0) return true;
  // Consumers wait inside the filter itself (ActiveLimitFilter); a filter frame with the method below it counts too.
  return filterAt >= 0 && th.frames.slice(0, filterAt).some((f) => f.method === method);
}

/** Each kind of pool the registry knows a lease method of, once, in registry order. */
export const LEASE_KINDS: ReadonlyArray<{ readonly kind: ConnectionPoolModel['kind']; readonly pool: string }> = [
  ...new Map(rowsOf('lease-wait').map((r) => [r.detail.kind, r.detail.pool] as const)),
].map(([kind, pool]) => ({ kind, pool }));
