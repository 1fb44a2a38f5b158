/** Thread names that carry an instance number, by the factory that writes them: what the thread-leak rule counts. */

export interface InstanceNaming {
  /** How every name of the scheme begins (what `pattern` asks first, as plain text). */
  readonly starts: readonly string[];
  /** The name, with the instance number in group 1. */
  readonly pattern: RegExp;
  /** The scheme as users read it, `#` for numbers. */
  readonly scheme: string;
  /** What one instance is, and what creates it. */
  readonly instance: string;
  readonly remedy: string;
}

/** Thread names with an instance number, by the factory that writes them (the JDK's, Netty's). */
export const INSTANCE_NAMINGS: readonly InstanceNaming[] = [
  {
    starts: ['pool-'],
    pattern: /^pool-(\d+)-thread-\d+$/,
    scheme: 'pool-#-thread-#',
    instance: 'an executor of Executors.newFixedThreadPool/newCachedThreadPool (the default thread factory numbers each pool)',
    remedy: 'create the executor once and share it, or shut it down (try-with-resources on JDK 19+, or shutdown() in a finally)',
  },
  {
    starts: ['Timer-'],
    pattern: /^Timer-(\d+)$/,
    scheme: 'Timer-#',
    instance: 'a java.util.Timer (each has its own thread)',
    remedy: 'share one Timer or ScheduledExecutorService, or cancel() each Timer when done',
  },
  {
    starts: ['ForkJoinPool-'],
    pattern: /^ForkJoinPool-(\d+)-worker-\d+$/,
    scheme: 'ForkJoinPool-#-worker-#',
    instance: 'a new ForkJoinPool',
    remedy: 'create the ForkJoinPool once and share it, or shut it down',
  },
  {
    starts: ['HttpClient-'],
    pattern: /^HttpClient-(\d+)-(?:SelectorManager|Worker-\d+)$/,
    scheme: 'HttpClient-#-SelectorManager',
    instance: 'a java.net.http.HttpClient (each has a selector thread)',
    remedy: 'build one HttpClient and share it (it is thread-safe), or close it (JDK 21+)',
  },
  {
    starts: ['nioEventLoopGroup-', 'epollEventLoopGroup-', 'defaultEventLoopGroup-'],
    pattern: /^(?:nioEventLoopGroup|epollEventLoopGroup|defaultEventLoopGroup)-(\d+)-\d+$/,
    scheme: 'nioEventLoopGroup-#-#',
    instance: 'a Netty EventLoopGroup',
    remedy: 'share the EventLoopGroup, or shutdownGracefully() it when its channels close',
  },
  {
    starts: ['OkHttp ConnectionPool'],
    pattern: /^OkHttp ConnectionPool(?: \((\d+)\))?$/,
    scheme: 'OkHttp ConnectionPool',
    instance: 'an OkHttpClient built per call (each has its own connection pool)',
    remedy: 'build one OkHttpClient and derive the others from it with newBuilder()',
  },
];

/**
 * The first characters any scheme's names begin with: a dump's names are read once, and most are
 * ruled out by their first character before a pattern is tried (a regular expression per name was
 * most of the rule's time on a dump of 200,000 threads).
 */
const FIRST_CHARACTERS = new Set(INSTANCE_NAMINGS.flatMap((n) => n.starts.map((s) => s.charCodeAt(0))));

/** The scheme a thread name is an instance of, with the instance number (null for none). */
export function instanceNamingOf(name: string): { readonly naming: InstanceNaming; readonly number: number | null } | undefined {
  if (!FIRST_CHARACTERS.has(name.charCodeAt(0))) return undefined;
  for (const naming of INSTANCE_NAMINGS) {
    if (!naming.starts.some((s) => name.startsWith(s))) continue;
    const m = naming.pattern.exec(name);
    if (m !== null) return { naming, number: m[1] !== undefined ? Number(m[1]) : null };
  }
  return undefined;
}
