/**
 * Event-loop threads as data: the frame that runs each framework's loop (a thread whose stack holds
 * it is an I/O thread), and the packages of the loop's own code, so what runs above it is told
 * apart as the application's. One row per loop, with where it comes from.
 */
import type { ThreadEntry } from '../model/thread-dump.js';
import { perStack } from './per-stack.js';
import { isJdkFrame } from './thread-activity.js';

export interface EventLoopKind {
  /** The loop's run method, as dumps print it. */
  readonly frame: string;
  readonly framework: string;
  /** Packages of the loop's own code (its I/O handling, pipeline and codecs). */
  readonly ownPackages: readonly string[];
  readonly source: string;
}

const NETTY = ['io.netty.'];

const EVENT_LOOPS: readonly EventLoopKind[] = [
  {
    frame: 'io.netty.channel.nio.NioEventLoop.run',
    framework: 'Netty (NIO)',
    ownPackages: NETTY,
    source: 'Netty 4.0-4.1 NioEventLoop; Dubbo NettyServerWorker/NettyClientWorker, Vert.x, Reactor Netty, gRPC',
  },
  { frame: 'io.netty.channel.epoll.EpollEventLoop.run', framework: 'Netty (epoll)', ownPackages: NETTY, source: 'Netty 4 native transport on Linux' },
  { frame: 'io.netty.channel.kqueue.KQueueEventLoop.run', framework: 'Netty (kqueue)', ownPackages: NETTY, source: 'Netty 4 native transport on macOS/BSD' },
  {
    frame: 'io.netty.channel.SingleThreadIoEventLoop.run',
    framework: 'Netty 4.2',
    ownPackages: NETTY,
    source: 'Netty 4.2 IoEventLoop (NioIoHandler, EpollIoHandler)',
  },
  {
    frame: 'org.jboss.netty.channel.socket.nio.AbstractNioSelector.run',
    framework: 'Netty 3',
    ownPackages: ['org.jboss.netty.'],
    source: 'Netty 3 NioWorker (Dubbo 2.5 with netty3, old Akka)',
  },
  {
    frame: 'org.xnio.nio.WorkerThread.run',
    framework: 'XNIO (Undertow, WildFly)',
    ownPackages: ['org.xnio.', 'io.undertow.server.protocol.', 'io.undertow.conduits.'],
    source: 'XNIO I/O threads ("XNIO-1 I/O-3"); Undertow runs non-dispatched handlers on them',
  },
  {
    frame: 'org.glassfish.grizzly.nio.SelectorRunner.run',
    framework: 'Grizzly (GlassFish, Payara)',
    ownPackages: ['org.glassfish.grizzly.'],
    source: 'Grizzly selector runners',
  },
];

const BY_FRAME = new Map(EVENT_LOOPS.map((k) => [k.frame, k]));

/**
 * How far up from the bottom of a stack a loop's run method can sit: below it are only the thread's
 * start and the frameworks' thin wrappers (Thread.run, FastThreadLocalRunnable, ThreadExecutorMap).
 * Searching no further keeps this cheap on the 200,000 threads of a big dump.
 */
const LOOP_DEPTH = 12;

/** The loop a thread runs, when its stack holds one (searched from the bottom, where loops sit). */
export function eventLoopOf(th: Pick<ThreadEntry, 'frames'>): EventLoopKind | undefined {
  return loopOfStack(th.frames);
}

const loopOfStack = perStack((frames): EventLoopKind | undefined => {
  const end = Math.max(0, frames.length - LOOP_DEPTH);
  for (let i = frames.length - 1; i >= end; i--) {
    const k = BY_FRAME.get(frames[i]!.qualified);
    if (k !== undefined) return k;
  }
  return undefined;
});

/** The top-most frame above the loop that is neither the JDK's nor the loop's own: the application's code it runs. */
export function applicationFrameOf(th: ThreadEntry, loop: EventLoopKind): string | undefined {
  for (const f of th.frames) {
    if (f.qualified === loop.frame) return undefined;
    if (isJdkFrame(f) || loop.ownPackages.some((p) => f.qualified.startsWith(p))) continue;
    return f.qualified;
  }
  return undefined;
}
