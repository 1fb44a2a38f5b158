/**
 * What stacks alone say about the concurrency machinery (java-internals.md, sections 1-4): threads
 * waiting for a connection lease, shutdown hooks at work, threads inside a service method. Data
 * (frame patterns per kind) plus small predicates over a thread's frames.
 */
import type { ConnectionPoolModel } from '../model/model.js';
import type { StackFrame, ThreadEntry } from '../model/thread-dump.js';
import { perStack } from '../threads/per-stack.js';

/** How many top frames are looked at for a wait: the lease method sits near the top of a parked thread. */
const WAIT_DEPTH = 16;

export interface LeaseWaitSign {
  readonly kind: ConnectionPoolModel['kind'];
  /** A frame (`Class.method` suffix) that only a thread waiting for a lease has near its top. */
  readonly frames: readonly string[];
  readonly label: string;
}

export const LEASE_WAITS: readonly LeaseWaitSign[] = [
  {
    kind: 'apache-httpclient-4',
    frames: ['pool.AbstractConnPool.getPoolEntryBlocking', 'pool.PoolEntryFuture.await'],
    label: 'Apache HttpClient 4 connection pool',
  },
  {
    kind: 'apache-httpclient-5',
    frames: ['pool.StrictConnPool$1.get', 'pool.LaxConnPool$1.get', 'PoolingHttpClientConnectionManager$3.get'],
    label: 'Apache HttpClient 5 connection pool',
  },
  { kind: 'hikaricp', frames: ['hikari.util.ConcurrentBag.borrow'], label: 'HikariCP' },
  { kind: 'druid', frames: ['druid.pool.DruidDataSource.takeLast', 'druid.pool.DruidDataSource.pollLast'], label: 'Druid' },
  { kind: 'commons-pool2', frames: ['pool2.impl.GenericObjectPool.borrowObject'], label: 'commons-pool2' },
  {
    kind: 'semaphore',
    frames: ['java.util.concurrent.Semaphore.acquire', 'java.util.concurrent.Semaphore.acquireUninterruptibly', 'java.util.concurrent.Semaphore.tryAcquire'],
    label: 'Semaphore',
  },
];

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
    const q = f.qualified;
    const ends = (list: readonly string[]) => list.some((x) => q.endsWith(x));
    s = {
      lease: LEASE_WAITS.find((sign) => ends(sign.frames)),
      hook: HOOK_FRAMES.find(([, frames]) => ends(frames))?.[0],
      httpCall: ends(HTTP_CALL_FRAMES),
      dubboRequest: ends(DUBBO_REQUEST_FRAMES),
      getTask: q.endsWith('ThreadPoolExecutor.getTask'),
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

/** Frames that mean a thread is running inside an HTTP client call with a connection in hand. */
const HTTP_CALL_FRAMES = ['execchain.MainClientExec.execute', 'impl.classic.MainClientExec.execute', 'okhttp3.internal.http.CallServerInterceptor.intercept'];

export function inHttpCall(th: ThreadEntry): boolean {
  return leaseWaitOf(th) === undefined && hasHttpCallFrame(th.frames);
}

const hasHttpCallFrame = perStack((frames) => frames.some((f) => signsOf(f).httpCall));

export type HookKind = 'dubbo' | 'spring' | 'jvm';

const HOOK_FRAMES: ReadonlyArray<readonly [HookKind, readonly string[]]> = [
  ['dubbo', ['.DubboShutdownHook.run', '.DubboShutdownHook.doDestroy', '.DubboShutdownHook.destroyAll']],
  // The Spring hook's thread name changed across versions (Thread-N, SpringContextShutdownHook,
  // SpringApplicationShutdownHook): it is known by its frames.
  [
    'spring',
    [
      'support.AbstractApplicationContext.doClose',
      'support.AbstractApplicationContext$1.run',
      'support.AbstractApplicationContext$2.run',
      'boot.SpringApplicationShutdownHook.run',
    ],
  ],
  ['jvm', ['java.lang.ApplicationShutdownHooks.runHooks', 'java.lang.Shutdown.exit', 'java.lang.Shutdown.runHooks']],
];

export function shutdownHookKind(th: ThreadEntry): HookKind | undefined {
  return th.name === 'DubboShutdownHook' ? 'dubbo' : hookOfFrames(th.frames);
}

const hookOfFrames = perStack((frames) => {
  // In the order of HOOK_FRAMES: a thread with Dubbo's frames is Dubbo's hook even when the JVM's are below.
  let found: HookKind | undefined;
  for (const f of frames) {
    const hook = signsOf(f).hook;
    if (hook === 'dubbo') return hook;
    if (hook === 'spring' || (hook === 'jvm' && found === undefined)) found = hook;
  }
  return found;
});

/** Frames of a Dubbo provider thread handling a request (any version). */
const DUBBO_REQUEST_FRAMES = [
  'dispatcher.ChannelEventRunnable.run',
  'HeaderExchangeHandler.received',
  'HeaderExchangeHandler.handleRequest',
  'proxy.AbstractProxyInvoker.invoke',
];

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
