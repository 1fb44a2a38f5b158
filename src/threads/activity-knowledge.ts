/**
 * What frames mean for a thread's activity: knowledge kept as data, one row per frame (or class
 * prefix), each with the verdict it contributes, the reason a user reads, and where the fact comes
 * from. The classifier (thread-activity.ts) combines these rows with the shape of the stack; no row
 * decides alone where the stack says otherwise (a queue take under a request is work).
 *
 * Sources are keyed as in ../shared/docs/thread-activity.md (TL = ThreadLogic advisories, TDFG = IBM
 * ThreadDumpFlameGrapher's idle stacks, JMX = JMXer's wait signatures, W = Watson, ES = Elasticsearch
 * hot threads, IJ = IntelliJ's parser); `jdk` means the JDK's own sources; `corpus` a dump of the
 * third-party corpus where the idiom was seen (the row is the idiom, not the file); `fixtures` a
 * real-JVM fixture of this project; "frame name known, not seen in a dump here" a framework's frame
 * written from knowledge of its code, not yet checked against a dump (a row to confirm first).
 *
 * A `frame` is `Class.method` matched as a suffix at a package boundary (so shaded copies such as
 * `io.grpc.netty.shaded.io.netty...` match too), or `prefix.*`, a package or class prefix.
 */

type FrameVerdict =
  /** A loop's own wait for work or events: idle (with `outsideTaskOnly`, only when no task runs beneath it). */
  | 'idle'
  /** A wait for the next item (a queue take, a condition, a nap, a select): idle in a thread's own loop, work under a task or request. */
  | 'idle-outside-task'
  /** A wait on a peer (a socket read): idle only for a listener reading its next message, work in a call. */
  | 'ambiguous'
  /** Looks like waiting, means work held up: a future, a latch, a lease from a pool, a remote call. */
  | 'pressure'
  /** JVM, JFR, attach, IDE and test-harness threads: never the application's problem. */
  | 'housekeeping'
  /** Server code reading the next request or message on a connection: makes a socket read beneath it idle. */
  | 'next-message'
  /** Handling a request or message: any wait above it is part of the work. */
  | 'request'
  /** An executor's worker run loop: the thread is a pool worker, and tasks start above this frame. */
  | 'pool-loop'
  /** Where a task or a thread's run method starts: application frames are counted from here. */
  | 'boundary';

export interface FrameRow {
  readonly frame: string;
  readonly verdict: FrameVerdict;
  /** What it means, in words the user reads in the verdict's reason. */
  readonly means: string;
  readonly source: string;
  /** For `idle`: idle only when what lies beneath is the pool's loop, not a task (TPE getTask, FJP awaitWork). */
  readonly outsideTaskOnly?: boolean;
  /** For `pool-loop`: the kind of executor, which names the pool with the thread-name stem. */
  readonly pool?: string;
  /**
   * For `idle-outside-task`: a wait for time or for a private signal, not for an item from a queue
   * (a sleep, a bare park). A thread's own loop naps between rounds; a task that naps or parks on
   * its own holds its worker while it does (a back-off, a slow step, a driver's lock).
   */
  readonly nap?: boolean;
}

const R = (frame: string, verdict: FrameVerdict, means: string, source: string, extra: Partial<FrameRow> = {}): FrameRow => ({
  frame,
  verdict,
  means,
  source,
  ...extra,
});

/** Executors' worker run loops: a thread with one of these at its root is a worker of that kind of pool. */
export const POOL_LOOPS: readonly FrameRow[] = [
  R('java.util.concurrent.ThreadPoolExecutor.runWorker', 'pool-loop', 'a ThreadPoolExecutor worker', 'jdk', { pool: 'ThreadPoolExecutor' }),
  R('org.apache.tomcat.util.threads.ThreadPoolExecutor.runWorker', 'pool-loop', "Tomcat's executor worker", 'TDFG; JMX', { pool: 'Tomcat executor' }),
  R('java.util.concurrent.ForkJoinPool.runWorker', 'pool-loop', 'a ForkJoinPool worker', 'jdk', { pool: 'ForkJoinPool' }),
  R('java.util.concurrent.ForkJoinWorkerThread.run', 'pool-loop', 'a ForkJoinPool worker', 'jdk', { pool: 'ForkJoinPool' }),
  R('weblogic.work.ExecuteThread.run', 'pool-loop', "a WebLogic self-tuning pool's execute thread", 'TL', { pool: 'WebLogic work manager' }),
  R('weblogic.kernel.ExecuteThread.run', 'pool-loop', 'a WebLogic execute queue thread', 'TL', { pool: 'WebLogic execute queue' }),
  R('com.ibm.ws.util.ThreadPool$Worker.run', 'pool-loop', 'a WebSphere thread pool worker', 'IBM-KB; TDFG', { pool: 'WebSphere pool' }),
  R('com.ibm.ws.threading.internal.ExecutorServiceImpl$RunnableWrapper.run', 'pool-loop', 'a Liberty executor worker', 'TDFG', { pool: 'Liberty executor' }),
  R('org.eclipse.jetty.util.thread.QueuedThreadPool$Runner.run', 'pool-loop', 'a Jetty QueuedThreadPool thread', 'JETTY', { pool: 'Jetty QueuedThreadPool' }),
  R('org.eclipse.jetty.util.thread.QueuedThreadPool$2.run', 'pool-loop', 'a Jetty QueuedThreadPool thread', 'JETTY', { pool: 'Jetty QueuedThreadPool' }),
  R('org.eclipse.jetty.util.thread.QueuedThreadPool$3.run', 'pool-loop', 'a Jetty QueuedThreadPool thread', 'JETTY', { pool: 'Jetty QueuedThreadPool' }),
  R('org.jboss.threads.EnhancedQueueExecutor$ThreadBody.run', 'pool-loop', 'a JBoss EnhancedQueueExecutor worker', 'JBT; YAT', {
    pool: 'JBoss EnhancedQueueExecutor',
  }),
  R('org.glassfish.grizzly.threadpool.AbstractThreadPool$Worker.run', 'pool-loop', 'a Grizzly thread pool worker', 'GRZ', { pool: 'Grizzly pool' }),
  R('com.sun.grizzly.util.SyncThreadPool$SyncThreadWorker.run', 'pool-loop', 'a Grizzly 1 pool worker', 'JMX', { pool: 'Grizzly pool' }),
  R('org.eclipse.core.internal.jobs.Worker.run', 'pool-loop', 'an Eclipse Jobs worker', 'TDFG', { pool: 'Eclipse Jobs' }),
  R(
    'kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.run',
    'pool-loop',
    'a Kotlin coroutine scheduler worker',
    'corpus (kotlinx DefaultDispatcher); LABELS.md pattern 6',
    { pool: 'Kotlin CoroutineScheduler' },
  ),
  R(
    'com.hazelcast.spi.impl.operationexecutor.impl.OperationThread.run',
    'pool-loop',
    'a Hazelcast operation thread',
    'corpus (Hazelcast 3 jstack); LABELS.md pattern 5',
    { pool: 'Hazelcast operation threads' },
  ),
  R('org.quartz.simpl.SimpleThreadPool$WorkerThread.run', 'pool-loop', 'a Quartz worker thread', 'TDFG; TL-NG', { pool: 'Quartz SimpleThreadPool' }),
  R('jeus.util.ThreadPoolExecutor$Worker.run', 'pool-loop', 'a JEUS pool worker', 'JMX', { pool: 'JEUS pool' }),
  R('jeus.util.threadpool.ThreadPool$Worker.run', 'pool-loop', 'a JEUS pool worker', 'JMX', { pool: 'JEUS pool' }),
  R(
    'jeus.servlet.engine.HttpRequestProcessor.run',
    'pool-loop',
    'a JEUS servlet worker',
    'corpus (JEUS 5 hpdump: workers take connections from ThreadPoolManager)',
    { pool: 'JEUS servlet workers' },
  ),
  R('jeus.util.concurrent50.concurrent.ThreadPoolExecutor$Worker.run', 'pool-loop', "a worker of JEUS's copy of ThreadPoolExecutor", 'corpus (JEUS 5)', {
    pool: 'ThreadPoolExecutor',
  }),
  R('com.caucho.env.thread.ResinThread.run', 'pool-loop', 'a Resin pool thread', 'JMX', { pool: 'Resin pool' }),
  R('org.openide.util.RequestProcessor$Processor.run', 'pool-loop', 'a NetBeans RequestProcessor thread', 'corpus (NetBeans)', {
    pool: 'NetBeans RequestProcessor',
  }),
];

/**
 * Frames that mean "waiting for work or events", by framework. The general JDK waits come last: a
 * framework's own row above them on the stack says more.
 */
export const WAIT_FRAMES: readonly FrameRow[] = [
  // --- executors' own get-task waits (idle only when the pool's loop, not a task, lies beneath)
  R('ThreadPoolExecutor.getTask', 'idle', "waits in its pool's getTask for the next task", 'ES; ATL; YAT; W', { outsideTaskOnly: true }),
  R('java.util.concurrent.ForkJoinPool.awaitWork', 'idle', 'a ForkJoinPool worker waiting for tasks (awaitWork)', 'W; jdk', { outsideTaskOnly: true }),
  R('java.util.concurrent.ForkJoinPool.awaitQuiescence', 'idle', 'a ForkJoinPool worker waiting for quiescence', 'jdk', { outsideTaskOnly: true }),
  R('java.util.concurrent.ForkJoinPool.idleAwaitWork', 'idle', 'a ForkJoinPool worker waiting for tasks', 'jdk 8', { outsideTaskOnly: true }),
  R('akka.dispatch.forkjoin.ForkJoinPool.idleAwaitWork', 'idle', 'an Akka dispatcher worker waiting for tasks', 'public dump', { outsideTaskOnly: true }),
  R('java.util.concurrent.ForkJoinPool.runWorker', 'idle', 'a ForkJoinPool worker parked between tasks', 'jdk (JDK 9-18 park in runWorker itself)', {
    outsideTaskOnly: true,
  }),
  R('weblogic.work.ExecuteThread.waitForRequest', 'idle', 'a WebLogic execute thread waiting for a request (idle)', 'TL-AM; JMX'),
  R('weblogic.kernel.ExecuteThread.waitForRequest', 'idle', 'a WebLogic execute thread waiting for a request (idle)', 'TL-AM; JMX'),
  R('com.ibm.ws.util.ThreadPool.getTask', 'idle', 'a WebSphere pool worker waiting for work (ThreadPool.getTask)', 'IBM-KB; TDFG'),
  R('com.ibm.ws.util.BoundedBuffer.waitGet_', 'idle', 'a WebSphere pool worker waiting for work (BoundedBuffer)', 'IBM-KB; TDFG', { outsideTaskOnly: true }),
  R('com.ibm.ws.threading.internal.BoundedBuffer.waitGet_', 'idle', 'a Liberty executor worker waiting for work', 'TDFG; IBM-KB', { outsideTaskOnly: true }),
  R('com.ibm.ws.threading.internal.Worker.getWork', 'idle', 'a Liberty worker waiting for work', 'JMX'),
  R('com.ibm.ws.util.CachedThread.waitForRunner', 'idle', 'a WebSphere cached thread waiting for work', 'IBM-WC'),
  R('com.ibm.ws390.orb.CommonBridge.getWork', 'idle', 'a WebSphere z/OS worker waiting for work', 'TDFG'),
  R('QueuedThreadPool.idleJobPoll', 'idle', 'a Jetty pool thread waiting for a job (idleJobPoll)', 'JMX; JETTY'),
  R('QueuedThreadPool$Runner.idleJobPoll', 'idle', 'a Jetty pool thread waiting for a job (idleJobPoll)', 'JETTY'),
  R('ReservedThreadExecutor$ReservedThread.reservedWait', 'idle', 'a Jetty reserved thread waiting to be used', 'JETTY'),
  R('EnhancedQueueExecutor$PoolThreadNode.park', 'idle', 'a JBoss EnhancedQueueExecutor worker waiting for a task', 'JBT; YAT'),
  R('EnhancedQueueExecutor$ThreadBody.run', 'idle', 'a JBoss EnhancedQueueExecutor worker waiting for a task', 'JBT; YAT', { outsideTaskOnly: true }),
  R('org.glassfish.grizzly.threadpool.FixedThreadPool$BasicWorker.getTask', 'idle', 'a Grizzly worker waiting for a task', 'GRZ; JMX'),
  R('org.glassfish.grizzly.threadpool.SyncThreadPool$SyncThreadWorker.getTask', 'idle', 'a Grizzly worker waiting for a task', 'GRZ; JMX'),
  R('com.sun.grizzly.util.SyncThreadPool$SyncThreadWorker.getTask', 'idle', 'a Grizzly worker waiting for a task', 'JMX'),
  R('jeus.util.ThreadPoolExecutor.getTask', 'idle', 'a JEUS worker waiting for a task', 'JMX'),
  R('jeus.servlet.engine.WebThreadPoolExecutor.getTask', 'idle', 'a JEUS servlet worker waiting for a request', 'JMX'),
  R('jeus.util.threadpool.ThreadPool$Worker.getTask', 'idle', 'a JEUS worker waiting for a task', 'JMX'),
  R('jeus.servlet.engine.ThreadPoolManager.getConnection', 'idle', 'a JEUS servlet worker waiting for the next connection', 'corpus (JEUS)'),
  R('com.caucho.env.thread.ResinThread.waitForTask', 'idle', 'a Resin thread waiting for a task', 'JMX'),
  R('org.eclipse.core.internal.jobs.WorkerPool.sleep', 'idle', 'an Eclipse Jobs worker waiting for a job (WorkerPool.sleep)', 'TDFG'),
  R('org.eclipse.core.internal.jobs.WorkerPool.startJob', 'idle', 'an Eclipse Jobs worker waiting for a job', 'TDFG', { outsideTaskOnly: true }),
  R('org.eclipse.core.internal.jobs.InternalWorker.run', 'idle', 'the Eclipse job manager waiting for work', 'TDFG'),
  R(
    'kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.park',
    'idle',
    'a Kotlin coroutine worker waiting for tasks',
    'corpus (kotlinx DefaultDispatcher); LABELS.md pattern 6',
  ),
  R(
    'kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.tryPark',
    'idle',
    'a Kotlin coroutine worker waiting for tasks',
    'corpus (kotlinx DefaultDispatcher); LABELS.md pattern 6',
  ),
  R(
    'kotlinx.coroutines.DefaultExecutor.run',
    'idle',
    "kotlinx's default executor waiting for delayed tasks",
    'corpus (kotlinx DefaultDispatcher); LABELS.md pattern 6',
  ),
  R('org.openide.util.RequestProcessor$Processor.run', 'idle', 'a NetBeans RequestProcessor thread waiting for a task', 'corpus (NetBeans)', {
    outsideTaskOnly: true,
  }),
  R('org.quartz.simpl.SimpleThreadPool$WorkerThread.run', 'idle', 'a Quartz worker waiting for a job', 'TDFG', { outsideTaskOnly: true }),
  R('org.quartz.core.QuartzSchedulerThread.run', 'idle', 'the Quartz scheduler waiting for the next trigger', 'TDFG; TL-NG'),
  R('io.netty.util.concurrent.SingleThreadEventExecutor.takeTask', 'idle', 'a Netty event executor waiting for a task', 'NETTY; JMX'),
  R('io.netty.util.concurrent.GlobalEventExecutor.takeTask', 'idle', "Netty's global event executor waiting for a task", 'NETTY'),
  R('io.netty.util.HashedWheelTimer$Worker.waitForNextTick', 'idle', 'a Netty HashedWheelTimer waiting for the next tick', 'NETTY'),
  R('io.netty.channel.nio.NioEventLoop.select', 'idle', 'a Netty event loop waiting for I/O events', 'NETTY'),
  R('io.netty.channel.nio.NioIoHandler.select', 'idle', 'a Netty event loop waiting for I/O events', 'NETTY'),
  R('io.netty.channel.epoll.EpollEventLoop.epollWait', 'idle', 'a Netty epoll event loop waiting for I/O events', 'NETTY'),
  R('io.netty.channel.epoll.EpollIoHandler.epollWait', 'idle', 'a Netty epoll event loop waiting for I/O events', 'NETTY'),
  R('io.netty.channel.kqueue.KQueueIoHandler.kqueueWait', 'idle', 'a Netty kqueue event loop waiting for I/O events', 'NETTY'),
  R('org.apache.tomcat.util.net.NioEndpoint$Poller.run', 'idle', "Tomcat's poller waiting for I/O events", 'TDFG'),
  R('org.apache.tomcat.util.net.Acceptor.run', 'idle', "Tomcat's acceptor waiting for connections", 'TDFG'),
  R('org.apache.tomcat.util.threads.TaskQueue.take', 'idle-outside-task', "Tomcat's task queue take", 'TDFG; JMX'),
  R('org.apache.tomcat.util.threads.TaskQueue.poll', 'idle-outside-task', "Tomcat's task queue poll", 'TDFG; JMX'),
  R('org.apache.coyote.AbstractProtocol$AsyncTimeout.run', 'idle', "Tomcat's async timeout checker napping", 'TDFG'),
  R('org.apache.catalina.core.StandardServer.await', 'idle', "Tomcat's main thread waiting for the shutdown command", 'tda issue #21'),
  R('org.eclipse.jetty.io.ManagedSelector.nioSelect', 'idle', 'a Jetty selector waiting for I/O events', 'JETTY'),
  R('org.eclipse.jetty.io.ManagedSelector.select', 'idle', 'a Jetty selector waiting for I/O events', 'JETTY'),
  R('org.eclipse.jetty.io.ManagedSelector$SelectorProducer.select', 'idle', 'a Jetty selector waiting for I/O events', 'JETTY'),
  R('org.glassfish.grizzly.nio.SelectorRunner.doSelect', 'idle', 'a Grizzly selector waiting for I/O events', 'GRZ'),
  R('org.xnio.nio.WorkerThread.run', 'idle', 'an XNIO I/O thread waiting for I/O events', 'XNIO', { outsideTaskOnly: true }),
  R('weblogic.socket.NTSocketMuxer.getIoCompletionResult', 'idle', 'the WebLogic socket muxer waiting for I/O completions', 'TL-AM; TL-MUX'),
  R('weblogic.socket.NTSocketMuxer.processSockets', 'idle', 'the WebLogic socket muxer polling its sockets', 'TL-AM; TL-MUX'),
  R('weblogic.socket.PosixSocketMuxer.processSockets', 'idle', 'the WebLogic socket muxer polling its sockets', 'TL-AM; TL-MUX'),
  R('weblogic.socket.EPollSocketMuxer.processSockets', 'idle', 'the WebLogic socket muxer polling its sockets', 'TL-AM; TL-MUX'),
  R('weblogic.socket.DevPollSocketMuxer.processSockets', 'idle', 'the WebLogic socket muxer polling its sockets', 'TL-AM; TL-MUX'),
  R('weblogic.socket.NIOSocketMuxer.processSockets', 'idle', 'the WebLogic socket muxer polling its sockets', 'TL-AM; TL-MUX'),
  R('weblogic.socket.SocketReaderRequest.run', 'idle', 'a WebLogic socket reader waiting for I/O', 'TL-AM; TL-MUX', { outsideTaskOnly: true }),
  R('weblogic.t3.srvr.T3Srvr.waitForDeath', 'idle', "WebLogic's main thread waiting for shutdown", 'TL-AM'),
  R('weblogic.time.common.internal.TimeTable.snooze', 'idle', 'a WebLogic timer napping until its next event', 'corpus (WebLogic); TL'),
  R('weblogic.timers.internal.TimerThread$Thread.run', 'idle', 'a WebLogic timer thread waiting for its next timer', 'TL-TA'),
  R('weblogic.cluster.MulticastFragmentSocket.receive', 'idle', 'a WebLogic cluster listener waiting for multicast messages', 'TL-AM'),
  R('weblogic.store.internal.PersistentStoreImpl.getOutstandingWork', 'idle', 'a WebLogic store thread waiting for work', 'TL-AM'),
  R('weblogic.jms.client.JMSSession.receiveMessage', 'idle', 'a WebLogic JMS consumer waiting for messages', 'TL-AM'),
  R('weblogic.messaging.kernel.internal.QueueImpl.receive', 'idle', 'a WebLogic JMS consumer waiting for messages', 'TL-AM'),
  R('com.tangosol.coherence.component.util.Daemon.onWait', 'idle', 'a Coherence daemon waiting for work', 'TL-AM'),
  R('oracle.ons.NotificationQueue.dequeue', 'idle', 'an Oracle ONS thread waiting for events', 'TL-AM'),
  R('com.ibm.io.async.AsyncLibrary.aio_getioev3', 'idle', 'a WebSphere AIO thread waiting for I/O completions', 'TDFG'),
  R('com.ibm.io.async.ResultHandler.runEventProcessingLoop', 'idle', 'a WebSphere AIO thread waiting for I/O completions', 'TDFG', { outsideTaskOnly: true }),
  R('com.ibm.ws.tcp.channel.impl.ChannelSelector.run', 'idle', 'a WebSphere TCP channel selector', 'TDFG', { outsideTaskOnly: true }),
  R('com.ibm.ws.asynchbeans.am.AlarmManagerThread.run', 'idle', 'a WebSphere alarm manager waiting for alarms', 'TDFG'),
  R('com.ibm.ejs.util.am.AlarmThreadMonitor$AlarmThreadCheckDetector.run', 'idle', 'a WebSphere alarm monitor napping', 'TDFG'),
  R('com.ibm.ejs.j2c.work.WorkScheduler.run', 'idle', 'a WebSphere J2C work scheduler waiting', 'TDFG'),
  R('com.ibm.ws.wlm.threadmanager.SleeperThreadPool.run', 'idle', 'a WebSphere WLM sleeper', 'TDFG'),
  R('com.ibm.ws.scheduler.SchedulerDaemonImpl.run', 'idle', 'the WebSphere scheduler daemon waiting', 'TDFG'),
  R('org.eclipse.osgi.framework.eventmgr.EventManager$EventThread.getNextEvent', 'idle', 'an Equinox event dispatcher waiting for events', 'TDFG'),
  R('org.apache.felix.scr.impl.ComponentActorThread.run', 'idle', "Felix SCR's component actor waiting for work", 'corpus (Felix SCR)'),
  R('java.awt.EventQueue.getNextEvent', 'idle', 'the AWT event dispatch thread waiting for events', 'IJ'),
  R('sun.awt.X11.XToolkit.waitForEvents', 'idle', 'the AWT X11 toolkit waiting for window events', 'IJ'),
  R('sun.awt.windows.WToolkit.eventLoop', 'idle', 'the AWT Windows toolkit waiting for window events', 'IJ'),
  R('sun.awt.AWTAutoShutdown.run', 'idle', 'AWT auto-shutdown waiting', 'IJ'),
  R('sun.java2d.Disposer.run', 'idle', 'the Java2D disposer waiting for references', 'IJ'),
  R('javax.swing.TimerQueue.run', 'idle', 'the Swing timer queue waiting for its next timer', 'IJ'),
  R('java.util.TimerThread.mainLoop', 'idle', 'a java.util.Timer waiting for its next task', 'IJ; TDFG'),
  R('java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue.take', 'idle-outside-task', 'a scheduled executor waiting for its next task', 'TDFG; W'),
  R('java.util.concurrent.DelayQueue.take', 'idle-outside-task', 'a delay queue take', 'TDFG'),
  R('com.sun.jmx.remote.internal.ServerCommunicatorAdmin$Timeout.run', 'idle', 'the JMX connection timeout checker napping', 'ES'),
  R(
    'com.sun.jmx.remote.opt.internal.ServerCommunicatorAdmin$Adminor.run',
    'idle',
    'the JMX connection timeout checker napping',
    'corpus (JMX remote optional)',
  ),
  R('com.sun.jmx.remote.opt.util.ThreadService$ThreadServiceJob.run', 'idle', 'a JMX remote pool thread waiting for a job', 'corpus (JMX remote optional)', {
    outsideTaskOnly: true,
  }),
  R('com.sun.jmx.remote.opt.util.JobExecutor.run', 'idle', 'a JMX remote job executor waiting for a job', 'corpus (JMX remote optional)', {
    outsideTaskOnly: true,
  }),
  R('org.apache.kafka.common.network.Selector.select', 'idle-outside-task', 'a Kafka network selector', 'public dumps; kafka sources'),
  R(
    'org.apache.kafka.clients.consumer.internals.AbstractCoordinator$HeartbeatThread.run',
    'idle',
    'the Kafka heartbeat thread between heartbeats',
    'thread-activity.md row 117',
  ),
  R('akka.actor.LightArrayRevolverScheduler.waitNanos', 'idle', 'the Akka scheduler waiting for its next tick', 'thread-activity.md row 119'),
  R('org.apache.pekko.actor.LightArrayRevolverScheduler.waitNanos', 'idle', 'the Pekko scheduler waiting for its next tick', 'thread-activity.md row 119'),
  R('org.elasticsearch.threadpool.ThreadPool$CachedTimeThread.run', 'idle', "Elasticsearch's cached time thread", 'ES'),
  R('org.apache.log4j.AsyncAppender$Dispatcher.run', 'idle', "log4j's async appender waiting for events", 'TDFG'),
  R(
    'com.hazelcast.internal.util.collection.MPSCQueue.take',
    'idle',
    'a Hazelcast operation thread waiting for operations',
    'corpus (Hazelcast 3 jstack); LABELS.md pattern 5',
  ),
  R(
    'com.hazelcast.internal.util.collection.MPSCQueue.takeAll',
    'idle',
    'a Hazelcast operation thread waiting for operations',
    'corpus (Hazelcast 3 jstack); LABELS.md pattern 5',
  ),
  R(
    'com.hazelcast.spi.impl.operationexecutor.impl.DefaultOperationQueue.take',
    'idle',
    'a Hazelcast operation thread waiting for operations',
    'corpus (Hazelcast 3 jstack); LABELS.md pattern 5',
  ),
  R(
    'com.hazelcast.spi.impl.operationexecutor.impl.OperationQueueImpl.take',
    'idle',
    'a Hazelcast operation thread waiting for operations',
    'corpus (Hazelcast 3 jstack); LABELS.md pattern 5',
  ),
  R(
    'com.alibaba.druid.pool.DruidDataSource$CreateConnectionThread.run',
    'idle',
    "Druid's connection creator waiting until a borrower needs a connection",
    'fixtures (Druid incident); the earlier IDLE_WAIT_SITES',
    { outsideTaskOnly: true },
  ),
  R(
    'com.alibaba.druid.pool.DruidDataSource$DestroyConnectionThread.run',
    'idle',
    "Druid's connection destroyer between runs",
    'fixtures (Druid incident); the earlier IDLE_WAIT_SITES',
    { outsideTaskOnly: true },
  ),
  R('okio.AsyncTimeout.awaitTimeout', 'idle', "OkHttp's timeout watchdog waiting", 'fixtures (OkHttp incident); the earlier idle markers'),
  R('okhttp3.ConnectionPool$1.run', 'idle', "OkHttp's connection pool cleanup between runs", 'fixtures (OkHttp incident); the earlier idle markers'),
  R('okhttp3.ConnectionPool.lambda$new$0', 'idle', "OkHttp's connection pool cleanup between runs", 'fixtures (OkHttp incident); the earlier idle markers'),
  R(
    'com.sun.jmx.remote.internal.ArrayNotificationBuffer.fetchNotifications',
    'idle',
    "a JMX client's long poll for notifications, waiting for events",
    'jdk; corpus (JMX over RMI)',
  ),
  R(
    'org.eclipse.osgi.container.SystemModule.waitForStop',
    'idle',
    "the OSGi framework's launcher waiting for it to stop (waiting for shutdown)",
    'corpus (Equinox)',
  ),
  R(
    'org.apache.felix.framework.Felix.waitForStop',
    'idle',
    "the OSGi framework's launcher waiting for it to stop (waiting for shutdown)",
    'felix (frame name known, not seen in a dump here)',
  ),
  R('jeus.server.enginecontainer.EngineContainer.waitForDown', 'idle', "JEUS's main thread waiting for shutdown", 'corpus (JEUS 5)'),
  R('IdleConnectionEvictor$1.run', 'idle', "HttpClient's idle connection evictor between runs", 'fixtures (HttpClient incident); the earlier idle markers'),

  // --- reading the next request or message on a connection (a socket read beneath these waits for the peer to speak)
  R(
    'jeus.servlet.engine.WebServletRequest.readRequestLine',
    'next-message',
    'a JEUS connection thread reading the next request line (keep-alive)',
    'corpus (JEUS)',
  ),
  R('org.apache.coyote.ajp.AjpProcessor.readMessage', 'next-message', "Tomcat's AJP connection waiting for the next request (keep-alive)", 'TDFG'),
  R('org.apache.coyote.ajp.AjpProcessor.read', 'next-message', "Tomcat's AJP connection waiting for the next request (keep-alive)", 'TDFG'),
  R('org.apache.jk.common.ChannelSocket.receive', 'next-message', "Tomcat's mod_jk connection waiting for the next request", 'TDFG'),
  R(
    'org.apache.coyote.http11.Http11InputBuffer.parseRequestLine',
    'next-message',
    "Tomcat's HTTP connection reading the next request line (keep-alive)",
    'TDFG',
  ),
  R(
    'org.apache.coyote.http11.InternalInputBuffer.parseRequestLine',
    'next-message',
    "Tomcat's HTTP connection reading the next request line (keep-alive)",
    'TDFG',
  ),
  R('com.ibm.ws.http.HttpConnection.readAndHandleRequest', 'next-message', 'a WebSphere connection waiting for the next request (keep-alive)', 'IBM-WC'),
  R('sun.rmi.transport.tcp.TCPTransport.handleMessages', 'next-message', 'an RMI connection waiting for the next call', 'W; TL-NG'),
  R('com.sun.jmx.remote.socket.SocketConnection.readMessage', 'next-message', 'a JMX connection waiting for the next message', 'TL-NG'),
  R(
    'jeus.io.impl.blockingChannel.util.BlockingChannelInputStreamBuffer.readBuffer',
    'next-message',
    'a JEUS channel reader waiting for the next message',
    'corpus (JEUS)',
  ),
  R(
    'hudson.remoting.SynchronousCommandTransport$ReaderThread.run',
    'next-message',
    'a Jenkins remoting channel reader waiting for the next command',
    'corpus (Jenkins)',
  ),
  R('eventsource.EventSource.connect', 'next-message', 'a server-sent-events client waiting for the next event', 'corpus (okhttp-eventsource)'),
  R(
    'eventsource.EventSource.run',
    'next-message',
    'a server-sent-events client waiting for the next event',
    'okhttp-eventsource (frame name known, not seen in a dump here)',
  ),
  R('netscape.ldap.LDAPConnThread.run', 'next-message', 'an LDAP connection reader waiting for responses', 'TL-AM'),
  R('com.sun.jndi.ldap.Connection.run', 'next-message', 'an LDAP connection reader waiting for responses', 'TL-NG'),
  R('TibjmsxLinkTcp$LinkReader.run', 'next-message', 'a TIBCO EMS link reader waiting for messages', 'TL-AM'),

  // --- pressure: waits that hold work up (a warning when they last)
  // A producer parked for room in a full queue is held by back-pressure: its consumer does not keep up.
  // (Many producers share the queue's notFull condition, which alone would read as a work queue's consumers.)
  R('java.util.concurrent.ArrayBlockingQueue.put', 'pressure', 'waits for room in a full ArrayBlockingQueue (its consumer does not keep up)', 'jdk'),
  R('java.util.concurrent.ArrayBlockingQueue.offer', 'pressure', 'waits (with a timeout) for room in a full ArrayBlockingQueue', 'jdk'),
  R('java.util.concurrent.LinkedBlockingQueue.put', 'pressure', 'waits for room in a full LinkedBlockingQueue (its consumer does not keep up)', 'jdk'),
  R('java.util.concurrent.LinkedBlockingQueue.offer', 'pressure', 'waits (with a timeout) for room in a full LinkedBlockingQueue', 'jdk'),
  R('java.util.concurrent.LinkedBlockingDeque.putLast', 'pressure', 'waits for room in a full LinkedBlockingDeque', 'jdk'),
  R('java.util.concurrent.LinkedBlockingDeque.offerLast', 'pressure', 'waits (with a timeout) for room in a full LinkedBlockingDeque', 'jdk'),
  R('hikari.util.ConcurrentBag.borrow', 'pressure', 'waits for a HikariCP connection', 'stack-signs'),
  R('druid.pool.DruidDataSource.takeLast', 'pressure', 'waits for a Druid connection', 'stack-signs'),
  R('druid.pool.DruidDataSource.pollLast', 'pressure', 'waits for a Druid connection', 'stack-signs'),
  R('pool2.impl.GenericObjectPool.borrowObject', 'pressure', 'waits for an object from a commons-pool2 pool', 'stack-signs'),
  R('pool.AbstractConnPool.getPoolEntryBlocking', 'pressure', 'waits for an HTTP connection from HttpClient 4', 'stack-signs'),
  R('pool.PoolEntryFuture.await', 'pressure', 'waits for an HTTP connection from HttpClient 4', 'stack-signs'),
  R('conn.tsccm.ConnPoolByRoute.getEntryBlocking', 'pressure', 'waits for an HTTP connection (HttpClient 4.0 route pool)', 'TL-AM'),
  R('pool.StrictConnPool$1.get', 'pressure', 'waits for an HTTP connection from HttpClient 5', 'stack-signs'),
  R('pool.LaxConnPool$1.get', 'pressure', 'waits for an HTTP connection from HttpClient 5', 'stack-signs'),
  R('weblogic.ejb.container.pool.StatelessSessionPool.waitForBean', 'pressure', 'waits for a stateless session bean from its pool', 'TL-AM'),
  R('weblogic.jdbc.common.internal.ConnectionPool.reserve', 'pressure', 'waits for a WebLogic JDBC connection', 'TL-AM'),
  R('oracle.ucp.jdbc.PoolDataSourceImpl.getConnection', 'pressure', 'waits for a UCP JDBC connection', 'TL-AM'),
  R('java.util.concurrent.Semaphore.acquire', 'pressure', 'waits for a Semaphore permit', 'jdk'),
  R('java.util.concurrent.Semaphore.acquireUninterruptibly', 'pressure', 'waits for a Semaphore permit', 'jdk'),
  R('java.util.concurrent.Semaphore.tryAcquire', 'pressure', 'waits for a Semaphore permit', 'jdk'),
  R('io.grpc.stub.ClientCalls$ThreadlessExecutor.waitAndDrain', 'pressure', 'waits for a gRPC response', 'grpc (frame name known, not seen in a dump here)'),
  R(
    'org.apache.dubbo.common.threadpool.ThreadlessExecutor.waitAndDrain',
    'pressure',
    'waits for a Dubbo provider response',
    'thread-activity.md row 114; stack-signs',
  ),
  R('remoting.exchange.support.DefaultFuture.get', 'pressure', 'waits for a Dubbo provider response', 'thread-activity.md row 114; stack-signs'),
  R('java.security.SecureRandom.generateSeed', 'pressure', 'waits for entropy (SecureRandom.generateSeed)', 'TL-AM'),
  R('java.util.concurrent.FutureTask.get', 'pressure', 'waits for a future', 'jdk'),
  R('java.util.concurrent.FutureTask.awaitDone', 'pressure', 'waits for a future', 'jdk'),
  R('java.util.concurrent.CompletableFuture.get', 'pressure', 'waits for a CompletableFuture', 'jdk'),
  R('java.util.concurrent.CompletableFuture.join', 'pressure', 'waits for a CompletableFuture', 'jdk'),
  R('java.util.concurrent.CompletableFuture.waitingGet', 'pressure', 'waits for a CompletableFuture', 'jdk'),
  R('java.util.concurrent.CompletableFuture.timedGet', 'pressure', 'waits for a CompletableFuture', 'jdk'),
  R('java.util.concurrent.CountDownLatch.await', 'pressure', 'waits for a CountDownLatch', 'jdk'),
  R('java.util.concurrent.CyclicBarrier.await', 'pressure', 'waits at a CyclicBarrier', 'jdk'),
  R('java.util.concurrent.CyclicBarrier.dowait', 'pressure', 'waits at a CyclicBarrier', 'jdk'),
  R('java.util.concurrent.Phaser.awaitAdvance', 'pressure', 'waits at a Phaser', 'jdk'),
  R('java.util.concurrent.ForkJoinTask.join', 'pressure', 'waits for a ForkJoin subtask (join)', 'jdk'),
  R('java.util.concurrent.ForkJoinTask.get', 'pressure', 'waits for a ForkJoin task', 'jdk'),
  R('java.util.concurrent.ForkJoinTask.awaitDone', 'pressure', 'waits for a ForkJoin task', 'jdk'),
  R('java.util.concurrent.ForkJoinPool.awaitJoin', 'pressure', 'waits for a ForkJoin subtask (join)', 'jdk'),
  R('java.util.concurrent.ForkJoinPool.helpJoin', 'pressure', 'waits for a ForkJoin subtask (join)', 'jdk'),
  R('java.lang.Thread.join', 'pressure', 'waits for another thread to end (Thread.join)', 'jdk'),
  R('com.google.common.util.concurrent.AbstractFuture.get', 'pressure', 'waits for a future', 'guava (frame name known, not seen in a dump here)'),

  // --- general JDK waits: what they mean depends on where they sit (the classifier decides)
  R('java.util.concurrent.BlockingQueue.take', 'idle-outside-task', 'a queue take', 'jdk'),
  R('java.util.concurrent.LinkedBlockingQueue.take', 'idle-outside-task', 'a queue take', 'jdk'),
  R('java.util.concurrent.LinkedBlockingQueue.poll', 'idle-outside-task', 'a queue poll', 'jdk'),
  R('java.util.concurrent.LinkedBlockingDeque.take', 'idle-outside-task', 'a queue take', 'jdk'),
  R('java.util.concurrent.LinkedBlockingDeque.takeFirst', 'idle-outside-task', 'a queue take', 'jdk'),
  R('java.util.concurrent.LinkedBlockingDeque.poll', 'idle-outside-task', 'a queue poll', 'jdk'),
  R('java.util.concurrent.LinkedBlockingDeque.pollFirst', 'idle-outside-task', 'a queue poll', 'jdk'),
  R('java.util.concurrent.ArrayBlockingQueue.take', 'idle-outside-task', 'a queue take', 'jdk'),
  R('java.util.concurrent.ArrayBlockingQueue.poll', 'idle-outside-task', 'a queue poll', 'jdk'),
  R('java.util.concurrent.PriorityBlockingQueue.take', 'idle-outside-task', 'a queue take', 'jdk'),
  R('java.util.concurrent.PriorityBlockingQueue.poll', 'idle-outside-task', 'a queue poll', 'jdk'),
  R('java.util.concurrent.LinkedTransferQueue.take', 'idle-outside-task', 'a queue take', 'jdk'),
  R('java.util.concurrent.LinkedTransferQueue.poll', 'idle-outside-task', 'a queue poll', 'ES'),
  R('java.util.concurrent.SynchronousQueue.take', 'idle-outside-task', 'a hand-off queue take', 'W'),
  R('java.util.concurrent.SynchronousQueue.poll', 'idle-outside-task', 'a hand-off queue poll', 'jdk'),
  R('java.util.concurrent.Exchanger.exchange', 'idle-outside-task', 'an exchange with a partner thread', 'jdk'),
  R('java.lang.ref.ReferenceQueue.remove', 'idle-outside-task', 'a reference queue wait', 'jdk'),
  R('java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await', 'idle-outside-task', 'a condition wait', 'jdk'),
  R('java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos', 'idle-outside-task', 'a timed condition wait', 'jdk'),
  R('java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitUntil', 'idle-outside-task', 'a timed condition wait', 'jdk'),
  R('java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitUninterruptibly', 'idle-outside-task', 'a condition wait', 'jdk'),
  R('java.lang.Object.wait', 'idle-outside-task', 'Object.wait', 'jdk'),
  R('java.lang.Object.wait0', 'idle-outside-task', 'Object.wait', 'jdk'),
  R('jrockit.vm.Locks.wait', 'idle-outside-task', 'Object.wait', 'JRockit (its Object.wait)'),
  R('jrockit.vm.Threads.sleep', 'idle-outside-task', 'a nap (Thread.sleep)', 'JRockit', { nap: true }),
  R('java.lang.Thread.sleep', 'idle-outside-task', 'a nap (Thread.sleep)', 'jdk', { nap: true }),
  R('java.lang.Thread.sleep0', 'idle-outside-task', 'a nap (Thread.sleep)', 'jdk', { nap: true }),
  R('java.lang.Thread.sleepNanos', 'idle-outside-task', 'a nap (Thread.sleep)', 'jdk', { nap: true }),
  R('java.lang.Thread.sleepNanos0', 'idle-outside-task', 'a nap (Thread.sleep)', 'jdk', { nap: true }),
  R('java.util.concurrent.TimeUnit.sleep', 'idle-outside-task', 'a nap (TimeUnit.sleep)', 'jdk', { nap: true }),
  R('java.util.concurrent.locks.LockSupport.park', 'idle-outside-task', 'a bare park (LockSupport.park)', 'jdk', { nap: true }),
  R('java.util.concurrent.locks.LockSupport.parkNanos', 'idle-outside-task', 'a timed park', 'jdk', { nap: true }),
  R('java.util.concurrent.locks.LockSupport.parkUntil', 'idle-outside-task', 'a timed park', 'jdk', { nap: true }),
  R('sun.nio.ch.SelectorImpl.select', 'idle-outside-task', 'a selector wait for I/O events', 'ES; TL-AM'),
  R('sun.nio.ch.SelectorImpl.lockAndDoSelect', 'idle-outside-task', 'a selector wait for I/O events', 'ES; TL-AM'),
  R('sun.nio.ch.EPollArrayWrapper.epollWait', 'idle-outside-task', 'an epoll wait for I/O events', 'W; TDFG'),
  R('sun.nio.ch.EPoll.wait', 'idle-outside-task', 'an epoll wait for I/O events', 'W; TDFG'),
  R('sun.nio.ch.KQueue.poll', 'idle-outside-task', 'a kqueue wait for I/O events', 'W'),
  R('sun.nio.ch.KQueueArrayWrapper.kevent0', 'idle-outside-task', 'a kqueue wait for I/O events', 'W'),
  R('sun.nio.ch.WEPoll.wait', 'idle-outside-task', 'a poll wait for I/O events', 'TDFG'),
  R('sun.nio.ch.PollArrayWrapper.poll0', 'idle-outside-task', 'a poll wait for I/O events', 'TDFG'),
  R('sun.nio.ch.WindowsSelectorImpl$SubSelector.poll0', 'idle-outside-task', 'a poll wait for I/O events', 'TDFG'),
  R('sun.nio.ch.Poller.poll', 'idle', "the JDK's virtual-thread I/O poller", 'jdk'),
  R('sun.nio.ch.Poller.pollLoop', 'idle', "the JDK's virtual-thread I/O poller", 'jdk'),
  R('sun.nio.ch.ServerSocketChannelImpl.accept', 'idle-outside-task', 'an accept wait for connections', 'W; TDFG'),
  R('sun.nio.ch.ServerSocketChannelImpl.accept0', 'idle-outside-task', 'an accept wait for connections', 'W; TDFG'),
  R('sun.nio.ch.Net.accept', 'idle-outside-task', 'an accept wait for connections', 'W; TDFG'),
  R('java.net.PlainSocketImpl.socketAccept', 'idle-outside-task', 'an accept wait for connections', 'TL-AM; W'),
  R('java.net.DualStackPlainSocketImpl.accept0', 'idle-outside-task', 'an accept wait for connections', 'TL-AM'),
  R('java.net.ServerSocket.accept', 'idle-outside-task', 'an accept wait for connections', 'TL-AM'),
  R('weblogic.socket.WeblogicServerSocket.accept', 'idle-outside-task', "WebLogic's listen thread accepting connections", 'TL-AM'),
  R('java.net.PlainDatagramSocketImpl.receive0', 'idle-outside-task', 'a UDP receive', 'TDFG; IJ'),
  R('java.net.DatagramSocket.receive', 'idle-outside-task', 'a UDP receive', 'TDFG; IJ'),
  R('java.lang.Process$PipeInputStream.read', 'idle-outside-task', "reading a child process's output (waiting for the child)", 'jdk'),
  R('java.lang.ProcessImpl$ProcessPipeInputStream.read', 'idle-outside-task', "reading a child process's output (waiting for the child)", 'jdk'),
  R('java.lang.UNIXProcess$ProcessPipeInputStream.read', 'idle-outside-task', "reading a child process's output (waiting for the child)", 'jdk'),
  R('java.lang.ProcessImpl.waitFor', 'idle-outside-task', 'waiting for a child process', 'jdk'),
  R('java.lang.UNIXProcess.waitFor', 'idle-outside-task', 'waiting for a child process', 'jdk'),
  R('java.net.SocketInputStream.socketRead0', 'ambiguous', 'a socket read', 'TL-AM; W'),
  R('java.net.SocketInputStream.socketRead', 'ambiguous', 'a socket read', 'TL-AM; W'),
  R('java.net.SocketInputStream.read', 'ambiguous', 'a socket read', 'TL-AM; W'),
  R('sun.nio.ch.NioSocketImpl.read', 'ambiguous', 'a socket read', 'W'),
  R('sun.nio.ch.NioSocketImpl.park', 'ambiguous', 'a socket read', 'W'),
  R('sun.nio.ch.SocketDispatcher.read0', 'ambiguous', 'a socket read', 'jdk'),
  R('sun.nio.ch.SocketChannelImpl.read', 'ambiguous', 'a socket read', 'jdk'),
  R('sun.nio.ch.Net.poll', 'ambiguous', 'a socket wait (Net.poll)', 'W'),
  R('java.io.FileInputStream.readBytes', 'ambiguous', 'a read from a file, a pipe or standard input', 'jdk'),
  R('jrockit.net.SocketNativeIO.readBytesPinned', 'ambiguous', 'a socket read', 'JRockit'),
];

/** Frames of the JVM's own and of tooling threads: housekeeping wherever they are. */
export const HOUSEKEEPING_FRAMES: readonly FrameRow[] = [
  R('java.lang.ref.Reference$ReferenceHandler.run', 'housekeeping', 'the JVM reference handler', 'IJ; ES'),
  R('java.lang.ref.Reference.waitForReferencePendingList', 'housekeeping', 'the JVM reference handler', 'jdk'),
  R('java.lang.ref.Finalizer$FinalizerThread.run', 'housekeeping', 'the JVM finalizer thread', 'IJ; ES'),
  R('jdk.internal.ref.CleanerImpl.run', 'housekeeping', 'a JDK cleaner thread', 'IJ; ES'),
  R('jdk.jfr.*', 'housekeeping', 'Java Flight Recorder', 'jdk'),
  R('jdk.management.jfr.*', 'housekeeping', 'Java Flight Recorder', 'jdk'),
  R('java.lang.ProcessHandleImpl.waitForProcessExit0', 'housekeeping', "the JDK's process reaper", 'ES; JST'),
  R('java.lang.ProcessHandleImpl$*', 'housekeeping', "the JDK's process reaper", 'ES; JST'),
  R('java.lang.UNIXProcess.waitForProcessExit', 'housekeeping', "the JDK's process reaper", 'ES'),
  R('java.lang.UNIXProcess$ProcessReaper.run', 'housekeeping', "the JDK's process reaper", 'ES'),
  R('java.lang.VirtualThread.takeVirtualThreadListToUnblock', 'housekeeping', "the JDK's virtual-thread unblocker", 'jdk'),
  R('java.lang.VirtualThread.unblockVirtualThreads', 'housekeeping', "the JDK's virtual-thread unblocker", 'jdk'),
  R('java.util.concurrent.DelayScheduler.run', 'housekeeping', "a ForkJoinPool's delay scheduler", 'jdk 25'),
  R('sun.misc.GC$Daemon.run', 'housekeeping', 'the RMI distributed-GC daemon', 'TDFG'),
  R('sun.rmi.transport.GC$Daemon.run', 'housekeeping', 'the RMI distributed-GC daemon', 'TDFG'),
  R('sun.rmi.transport.DGCClient$EndpointEntry$RenewCleanThread.run', 'housekeeping', 'the RMI distributed-GC renew thread', 'jdk'),
  R('sun.rmi.transport.ObjectTable$Reaper.run', 'housekeeping', 'the RMI object reaper', 'jdk'),
  R('sun.management.ThreadImpl.dumpThreads0', 'housekeeping', 'the thread taking this dump (ThreadMXBean.dumpAllThreads)', 'corpus (tooling)'),
  R('sun.management.ThreadImpl.dumpAllThreads', 'housekeeping', 'the thread taking this dump (ThreadMXBean.dumpAllThreads)', 'corpus (tooling)'),
  R('sun.management.ThreadImpl.getThreadInfo1', 'housekeeping', 'the thread taking this dump (ThreadMXBean.getThreadInfo)', 'jdk'),
  R('java.lang.Thread.dumpThreads', 'housekeeping', 'the thread taking this dump (Thread.getAllStackTraces)', 'jdk'),
  R('java.lang.Thread.getAllStackTraces', 'housekeeping', 'the thread taking this dump (Thread.getAllStackTraces)', 'jdk'),
  R('jdk.internal.vm.ThreadDumper.*', 'housekeeping', 'the thread taking this dump (jcmd Thread.dump_to_file)', 'jdk'),
  R('sun.tools.attach.*', 'housekeeping', 'the attach API (a tool taking this dump)', 'jdk'),
  R('com.sun.tools.attach.*', 'housekeeping', 'the attach API (a tool taking this dump)', 'jdk'),
  R('openj9.internal.tools.attach.*', 'housekeeping', "OpenJ9's attach listener", 'TDFG'),
  R('com.ibm.tools.attach.*', 'housekeeping', "IBM J9's attach listener", 'TDFG'),
  R('com.intellij.rt.execution.application.AppMainV2$1.run', 'housekeeping', "IntelliJ's Ctrl-Break monitor (an IDE agent)", 'corpus (IntelliJ runner)'),
  R('com.intellij.rt.*', 'housekeeping', "IntelliJ's runtime agent", 'corpus (IntelliJ runner)'),
  R('org.apache.maven.surefire.booter.CommandReader*', 'housekeeping', "Maven Surefire's command reader (test harness)", 'corpus (Surefire)'),
  R('org.apache.maven.surefire.booter.ForkedBooter*', 'housekeeping', "Maven Surefire's forked booter (test harness)", 'corpus (Surefire)'),
  R('org.apache.maven.surefire.api.util.internal.*', 'housekeeping', "Maven Surefire's channel to the build (test harness)", 'corpus (Surefire)'),
  R('org.apache.maven.surefire.booter.spi.*', 'housekeeping', "Maven Surefire's channel to the build (test harness)", 'corpus (Surefire)'),
  R('org.gradle.process.internal.*', 'housekeeping', "Gradle's worker process machinery (test harness)", 'gradle (frame name known, not seen in a dump here)'),
  R('jrockit.memory.Finalizer.*', 'housekeeping', "JRockit's finalizer", 'corpus (JRockit)'),
  R('jrockit.mapi.GarbageCollectorImpl.waitForEvent', 'housekeeping', "JRockit's GC event thread", 'corpus (JRockit)'),
  R('jrockit.management.jvm.GarbageCollectorImpl.waitForEvent', 'housekeeping', "JRockit's GC event thread", 'corpus (JRockit)'),
  R('jrockit.management.*', 'housekeeping', "JRockit's management threads", 'corpus (JRockit)'),
  R('com.sun.management.internal.*', 'housekeeping', "the JDK's management agent", 'jdk'),
  R('sun.management.jmxremote.*', 'housekeeping', "the JDK's JMX agent", 'jdk'),
];

/**
 * Frames that mean a request or message is being handled: a wait above them is part of the work
 * (the "a socket read of a client call" inside a servlet, a queue take inside a Dubbo call).
 */
export const REQUEST_FRAMES: readonly FrameRow[] = [
  R('javax.servlet.http.HttpServlet.service', 'request', 'a servlet request', 'servlet API'),
  R('jakarta.servlet.http.HttpServlet.service', 'request', 'a servlet request', 'servlet API'),
  R(
    'org.apache.catalina.core.ApplicationFilterChain.doFilter',
    'request',
    'a servlet request (Tomcat filter chain)',
    'tomcat (frame name known, not seen in a dump here)',
  ),
  R('org.apache.catalina.connector.CoyoteAdapter.service', 'request', 'an HTTP request (Tomcat)', 'tomcat (frame name known, not seen in a dump here)'),
  R('org.eclipse.jetty.server.HttpChannel.handle', 'request', 'an HTTP request (Jetty)', 'JETTY'),
  R('io.undertow.server.Connectors.executeRootHandler', 'request', 'an HTTP request (Undertow)', 'YAT'),
  R('org.springframework.web.servlet.DispatcherServlet.doDispatch', 'request', 'a Spring MVC request', 'spring (frame name known, not seen in a dump here)'),
  R('org.springframework.web.reactive.DispatcherHandler.handle', 'request', 'a Spring WebFlux request', 'spring (frame name known, not seen in a dump here)'),
  R('weblogic.servlet.internal.ServletStubImpl.execute', 'request', 'a WebLogic servlet request', 'TL-AM'),
  R('weblogic.servlet.internal.WebAppServletContext.execute', 'request', 'a WebLogic servlet request', 'TL-AM'),
  R('weblogic.rjvm.RJVMImpl.dispatchRequest', 'request', 'a WebLogic RMI request', 'TL-AM'),
  R('com.ibm.ws.webcontainer.servlet.ServletWrapper.service', 'request', 'a WebSphere servlet request', 'IBM-KB'),
  R('com.ibm.ws.webcontainer.WebContainer.handleRequest', 'request', 'a WebSphere servlet request', 'IBM-KB'),
  R('org.apache.dubbo.remoting.transport.dispatcher.ChannelEventRunnable.run', 'request', 'a Dubbo request', 'stack-signs'),
  R('com.alibaba.dubbo.remoting.transport.dispatcher.ChannelEventRunnable.run', 'request', 'a Dubbo request', 'stack-signs'),
  R('rpc.proxy.AbstractProxyInvoker.invoke', 'request', 'a Dubbo request', 'stack-signs'),
  R(
    'io.grpc.internal.ServerImpl$JumpToApplicationThreadServerStreamListener$1HalfClosed.runInContext',
    'request',
    'a gRPC call',
    'grpc (frame name known, not seen in a dump here)',
  ),
  R(
    'io.grpc.stub.ServerCalls$UnaryServerCallHandler$UnaryServerCallListener.onHalfClose',
    'request',
    'a gRPC call',
    'grpc (frame name known, not seen in a dump here)',
  ),
  R('sun.rmi.server.UnicastServerRef.dispatch', 'request', 'an RMI call', 'jdk'),
  R('org.glassfish.jersey.server.ServerRuntime$1.run', 'request', 'a JAX-RS request (Jersey)', 'jersey (frame name known, not seen in a dump here)'),
  R('org.jboss.resteasy.core.SynchronousDispatcher.invoke', 'request', 'a JAX-RS request (RESTEasy)', 'resteasy (frame name known, not seen in a dump here)'),
  R(
    'org.springframework.jms.listener.AbstractMessageListenerContainer.invokeListener',
    'request',
    'a JMS message',
    'spring (frame name known, not seen in a dump here)',
  ),
  R(
    'org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.doInvokeRecordListener',
    'request',
    'a Kafka record',
    'spring-kafka (frame name known, not seen in a dump here)',
  ),
  R('org.quartz.core.JobRunShell.run', 'request', 'a Quartz job', 'quartz (frame name known, not seen in a dump here)'),
  R(
    'org.springframework.scheduling.support.ScheduledMethodRunnable.run',
    'request',
    'a Spring @Scheduled job',
    'spring (frame name known, not seen in a dump here)',
  ),
];

/** Where a task or a thread starts: application frames are counted up from here. */
export const BOUNDARY_FRAMES: readonly FrameRow[] = [
  R('java.lang.Thread.run', 'boundary', "the thread's run method", 'jdk'),
  R('java.lang.Thread.runWith', 'boundary', "the thread's run method", 'jdk'),
  R('jdk.internal.misc.InnocuousThread.run', 'boundary', "the thread's run method", 'jdk'),
  R('java.lang.Thread.startThreadFromVM', 'boundary', "the thread's start (JRockit)", 'corpus (JRockit)'),
  R('java.util.concurrent.FutureTask.run', 'boundary', 'a task (FutureTask.run)', 'jdk'),
  R('java.util.concurrent.FutureTask.runAndReset', 'boundary', 'a periodic task', 'jdk'),
  R('java.util.concurrent.Executors$RunnableAdapter.call', 'boundary', 'a task', 'jdk'),
  R('java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run', 'boundary', 'a scheduled task', 'jdk'),
  R('java.util.concurrent.ThreadPoolExecutor$Worker.run', 'boundary', 'a pool worker', 'jdk'),
  R('java.util.concurrent.ForkJoinTask.doExec', 'boundary', 'a ForkJoin task', 'jdk'),
  R('java.util.concurrent.CompletableFuture$AsyncSupply.run', 'boundary', 'an async task', 'jdk'),
  R('java.util.concurrent.CompletableFuture$AsyncRun.run', 'boundary', 'an async task', 'jdk'),
  R('java.lang.VirtualThread.run', 'boundary', 'a virtual thread', 'jdk'),
  R('jdk.internal.vm.Continuation.enter', 'boundary', 'a virtual thread', 'jdk'),
  R('java.util.TimerThread.run', 'boundary', 'a timer task', 'jdk'),
];

/**
 * Threads that are the JVM's own by name, for dumps that print no frames for them (JRockit,
 * javacores, VisualVM) or frames that say nothing (`Attach Listener` RUNNABLE with no stack).
 */
export const HOUSEKEEPING_NAMES: ReadonlyArray<{ readonly name: RegExp; readonly means: string; readonly source: string }> = [
  {
    name: new RegExp(
      '^(' +
        /Signal Dispatcher|Attach Listener|Reference Handler|Finalizer|Common-Cleaner|Notification Thread|/.source +
        /Service Thread|Monitor Deflation Thread|Sweeper thread|VM Thread|VM Periodic Task Thread|/.source +
        /DestroyJavaVM|Surrogate Locker Thread \(Concurrent GC\)|Low Memory Detector|/.source +
        /process reaper( \(pid \d+\))?|VirtualThread-unblocker|Read-Poller|Write-Poller|JFR .*|JVMCI.*|Cleaner-\d+/.source +
        ')$',
    ),
    means: "the JVM's own thread",
    source: 'IJ; ES; TL-NG',
  },
  {
    name: new RegExp(
      '^(' +
        /C[12] CompilerThread\d+|C1 CompilerThread\d+|JIT Compilation Thread-\d+.*|/.source +
        /GC (Thread|task thread|Daemon)#?\d*.*|G1 .*|Gang worker#\d+.*|/.source +
        /Concurrent Mark-Sweep GC Thread|ParGC Thread#\d+|GC Thread#\d+|ZThread.*|Shenandoah.*/.source +
        ')$',
    ),
    means: "the JVM's compiler or garbage-collector thread",
    source: 'IJ; TL-NG',
  },
  {
    name: new RegExp(
      '^(' +
        /ForkJoinPool-\d+-delayScheduler|Monitor Ctrl-Break|surefire-forkedjvm-.*|/.source +
        /RMI GC Daemon|RMI Reaper|GC Daemon|Attach API wait loop|Attach handler|JIT-Sampler|/.source +
        /Signal Reporter|JIT Diagnostic Compilation Thread-\d+.*|Finalizer thread|Dump Thread/.source +
        ')$',
    ),
    means: 'a JVM helper or tooling thread',
    source: 'corpus (JVM helpers, IDE and test harness agents)',
  },
  { name: /^\[JRockit\] /, means: "JRockit's own thread", source: 'corpus (JRockit)' },
];

/**
 * Methods whose names say "wait for the next piece of work": a wait called from one of these is a
 * loop waiting for work, wherever the loop sits (a long-running task that is a writer loop, a
 * detector's interval). Matched against the first application frame beneath the wait.
 */
export const WORK_WAIT_METHODS: ReadonlyArray<{ readonly method: RegExp; readonly source: string }> = [
  {
    method: new RegExp(
      '^(' +
        /waitReady|waitForWork|waitForTask|waitForJob|waitForRequest|waitForEvents?|waitForNext\w*|/.source +
        /waitForMessages?|awaitWork|awaitTask|awaitEvents?|sleepInterval|idleWait|waitIdle|nextTask|/.source +
        /nextJob|nextEvent|takeTask|takeJob|getNextTask|getNextJob|getNextEvent|getTask|getWork|dequeue/.source +
        ')$',
    ),
    source: 'naming of wait-for-work methods in the frame table (getTask, waitForRequest, getNextEvent, takeTask, ...); corpus (NetBeans, Hazelcast)',
  },
];

/** Threads named like a program's main thread: waiting shallowly there is waiting for shutdown. */
export const MAIN_THREAD_NAMES: readonly string[] = ['main', 'Main Thread', 'DestroyJavaVM'];
