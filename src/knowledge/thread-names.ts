/**
 * What thread names say: the JVM's and tools' own threads (for dumps that print no frames for them:
 * JRockit, javacores, VisualVM, or frames that say nothing, like `Attach Listener` RUNNABLE with no
 * stack), garbage-collector threads, a program's main thread, names that number instances of a
 * factory, and how servers name their pools; and the method names that say a wait is for the next
 * piece of work, the next message or input. Matches are regular expressions over the whole name.
 */
import { type KnowledgeRow, row } from './row.js';

export const THREAD_NAME_ROWS: readonly KnowledgeRow[] = [
  row(
    '^(?:Signal Dispatcher|Attach Listener|Reference Handler|Finalizer|Common-Cleaner|Notification Thread|' +
      'Service Thread|Monitor Deflation Thread|Sweeper thread|VM Thread|VM Periodic Task Thread|' +
      'DestroyJavaVM|Surrogate Locker Thread \\(Concurrent GC\\)|Low Memory Detector|' +
      'process reaper(?: \\(pid \\d+\\))?|VirtualThread-unblocker|Read-Poller|Write-Poller|JFR .*|JVMCI.*|Cleaner-\\d+)$',
    'jvm-thread-name',
    "the JVM's own thread",
    'IJ; ES; TL-NG',
  ),
  row(
    '^(?:C[12] CompilerThread\\d+|JIT Compilation Thread-\\d+.*|JIT Diagnostic Compilation Thread-\\d+.*|JIT-Sampler)$',
    'jvm-thread-name',
    "the JVM's compiler thread",
    'IJ; TL-NG; OPENJ9',
  ),
  row(
    '^(?:GC (?:Thread|task thread|Daemon)#?\\d*.*|G1 .*|Gang worker#\\d+.*|Concurrent Mark-Sweep GC Thread|ParGC Thread#\\d+|' +
      'GC Thread#\\d+|ZThread.*|Z(?:Director|Driver\\w*|Stat|Unmapper|Uncommitter|Worker\\w*)|Shenandoah.*|GC Slave|GC Worker)$',
    'gc-thread-name',
    "the JVM's garbage-collector thread",
    'IJ; TL-NG; OPENJ9 (GC Slave)',
  ),
  row(
    '^(?:ForkJoinPool-\\d+-delayScheduler|Monitor Ctrl-Break|surefire-forkedjvm-.*|RMI GC Daemon|RMI Reaper|' +
      'Attach API wait loop|Attach handler|Signal Reporter|Finalizer thread|Dump Thread)$',
    'jvm-thread-name',
    'a JVM helper or tooling thread',
    'corpus (JVM helpers, IDE and test harness agents); OPENJ9 (Attach API, Signal Reporter)',
  ),
  row('^\\[JRockit\\] ', 'jvm-thread-name', "JRockit's own thread", 'JRockit; corpus (JRockit)'),

  row('^(?:main|Main Thread|DestroyJavaVM)$', 'main-thread-name', "the program's main thread", 'jdk; corpus (Jetty and Tomcat main threads)'),

  row(
    '^pool-(\\d+)-thread-\\d+$',
    'instance-naming',
    'an executor of Executors.newFixedThreadPool/newCachedThreadPool (the default thread factory numbers each pool)',
    'jdk',
    {
      starts: ['pool-'],
      scheme: 'pool-#-thread-#',
      remedy: 'create the executor once and share it, or shut it down (try-with-resources on JDK 19+, or shutdown() in a finally)',
    },
  ),
  row('^Timer-(\\d+)$', 'instance-naming', 'a java.util.Timer (each has its own thread)', 'jdk', {
    starts: ['Timer-'],
    scheme: 'Timer-#',
    remedy: 'share one Timer or ScheduledExecutorService, or cancel() each Timer when done',
  }),
  row('^ForkJoinPool-(\\d+)-worker-\\d+$', 'instance-naming', 'a new ForkJoinPool', 'jdk', {
    starts: ['ForkJoinPool-'],
    scheme: 'ForkJoinPool-#-worker-#',
    remedy: 'create the ForkJoinPool once and share it, or shut it down',
  }),
  row('^HttpClient-(\\d+)-(?:SelectorManager|Worker-\\d+)$', 'instance-naming', 'a java.net.http.HttpClient (each has a selector thread)', 'jdk', {
    starts: ['HttpClient-'],
    scheme: 'HttpClient-#-SelectorManager',
    remedy: 'build one HttpClient and share it (it is thread-safe), or close it (JDK 21+)',
  }),
  row('^Thread-(\\d+)$', 'instance-naming', 'a thread started with new Thread() and no name (the JDK numbers each)', 'jdk', {
    starts: ['Thread-'],
    scheme: 'Thread-#',
    remedy: 'run the work on one bounded executor instead of starting a thread per call, and give threads names that say what they are',
    threadPerInstance: true,
  }),
  row('^(?:nioEventLoopGroup|epollEventLoopGroup|defaultEventLoopGroup)-(\\d+)-\\d+$', 'instance-naming', 'a Netty EventLoopGroup', 'NETTY', {
    starts: ['nioEventLoopGroup-', 'epollEventLoopGroup-', 'defaultEventLoopGroup-'],
    scheme: 'nioEventLoopGroup-#-#',
    remedy: 'share the EventLoopGroup, or shutdownGracefully() it when its channels close',
  }),
  row('^OkHttp ConnectionPool(?: \\((\\d+)\\))?$', 'instance-naming', 'an OkHttpClient built per call (each has its own connection pool)', 'OKHTTP', {
    starts: ['OkHttp ConnectionPool'],
    scheme: 'OkHttp ConnectionPool',
    remedy: 'build one OkHttpClient and derive the others from it with newBuilder()',
  }),

  // `[ACTIVE] ExecuteThread: '13' for queue: 'weblogic.kernel.Default (self-tuning)'`: ACTIVE, STANDBY and
  // STUCK are states of the one self-tuning pool, and the queue is what names the pool.
  row(
    "^(?:\\[(?:ACTIVE|STANDBY|STUCK|HOGGING)\\]\\s*)*ExecuteThread: '\\d+' for queue: '([^']+)'",
    'pool-naming',
    'WebLogic execute threads',
    'TL; corpus (WebLogic 8-12)',
  ),
  row('^(.+?) : \\d+$', 'pool-naming', 'WebSphere pools (`WebContainer : 18`)', 'IBM-KB; IBM-WC'),
  row('^(SAPEngine_\\w+?_Thread\\[impl:\\d+\\])_\\d+$', 'pool-naming', 'SAP NetWeaver thread managers (`SAPEngine_Application_Thread[impl:3]_12`)', 'SAPN'),
  row('^(.+)-w\\d+ \\[[^\\]]*\\]$', 'pool-naming', 'JEUS servlet workers (`AWRB_SOPSI_BAN_01-w09 [container1-223]`)', 'corpus (JEUS)'),
  row(
    '^(DubboServerHandler-[^-]+(?:-[^-]+)*?)-thread-\\d+$',
    'pool-naming',
    "Dubbo's provider pool (`DubboServerHandler-10.0.0.1:20880-thread-7`)",
    'DUBBO; fixtures (Dubbo incidents)',
    {
      server: 'Dubbo provider',
    },
  ),

  // A worker's numbered name, then a space and text that starts with a mark, not a word: what the
  // application appended while the worker runs a request (`pool-2-thread-7 @@ GET /orders`).
  row(
    '^.+?[-_ #]\\d+( [^\\w\\s].*)$',
    'name-annotation',
    'an application renaming its worker while it runs a request (`pool-2-thread-7 @@ GET /orders`)',
    'fixtures (renamed-io-pool: workers the application renames while they work)',
  ),

  row(
    '^(?:waitReady|waitForWork|waitForTask|waitForJob|waitForRequest|waitForEvents?|waitForNext\\w*|' +
      'waitForMessages?|awaitWork|awaitTask|awaitEvents?|sleepInterval|idleWait|waitIdle|nextTask|' +
      'nextJob|nextEvent|takeTask|takeJob|getNextTask|getNextJob|getNextEvent|getTask|getWork|dequeue)$',
    'work-wait-method',
    'a method that waits for the next piece of work',
    'TL-AM (waitForRequest); IJ (getNextEvent); NETTY (takeTask); jdk (getTask); corpus (NetBeans, Hazelcast)',
  ),
  row(
    '^(?:(?:read|receive|recv|parse|await|waitFor|next|fetch|take|get)(?:Next)?' +
      '(?:Request|Message|Command|Frame|Packet|Header|Event|Input|Call|Line)s?(?:Line|Header|Loop)?|readLoop|receiveLoop|listen|processInput)$',
    'next-message-method',
    'a method that reads the next request or message',
    'fixtures (activity: a listener reading its next message); TDFG (parseRequestLine, readMessage); jdk (RMI handleMessages)',
  ),
  row(
    // A word of the name, not only its start: vendors prefix their natives (`nativeRead`, `jniAccept`, `_recv`).
    '^(?:[Rr]ecv\\w*|[Rr]eceive\\w*|[Rr]ead\\w*|[Aa]ccept\\w*|[Ll]isten\\w*|[Pp]oll\\w*|[Ss]elect\\w*|epoll\\w*|kevent\\w*|' +
      'WaitMessage|GetMessage\\w*|[Ww]ait\\w*|' +
      '[a-z0-9_]\\w*?(?:(?<=[a-z0-9])(?:Read|Recv|Receive|Accept|Listen|Poll|Select|Wait)(?![a-z])|' +
      '_(?:read|recv|accept|listen|poll|select|wait)(?![a-z]))\\w*)$',
    'native-input-method',
    'a native method waiting for input',
    'jdk (socketRead0, accept0, epollWait, kevent0: the JDK names its native waits so); SWT (OS.WaitMessage); IJ',
  ),
];
