/**
 * Frames that say what a thread is doing beyond idle or busy: waiting for a lease from a pool,
 * waiting inside a log call, running an event loop, blocked in I/O although RUNNABLE; and the
 * packages that are the JDK's own code.
 */
import { type KnowledgeRow, row } from './row.js';

const HC4 = { kind: 'apache-httpclient-4', pool: 'Apache HttpClient 4 connection pool' } as const;
const HC5 = { kind: 'apache-httpclient-5', pool: 'Apache HttpClient 5 connection pool' } as const;
const SEMAPHORE = { kind: 'semaphore', pool: 'Semaphore' } as const;
const NETTY_OWN = ['io.netty.'];

export const STACK_IDIOM_ROWS: readonly KnowledgeRow[] = [
  // --- a pool's lease method, near the top of a parked thread
  row(
    'pool.AbstractConnPool.getPoolEntryBlocking',
    'lease-wait',
    'waits for a connection of an Apache HttpClient 4 pool',
    'HTTPCLIENT; fixtures (HttpClient incident)',
    HC4,
  ),
  row('pool.PoolEntryFuture.await', 'lease-wait', 'waits for a connection of an Apache HttpClient 4 pool', 'HTTPCLIENT', HC4),
  row('pool.StrictConnPool$1.get', 'lease-wait', 'waits for a connection of an Apache HttpClient 5 pool', 'HTTPCLIENT; fixtures (HttpClient 5 incident)', HC5),
  row('pool.LaxConnPool$1.get', 'lease-wait', 'waits for a connection of an Apache HttpClient 5 pool', 'HTTPCLIENT', HC5),
  row('PoolingHttpClientConnectionManager$3.get', 'lease-wait', 'waits for a connection of an Apache HttpClient 5 pool', 'HTTPCLIENT', HC5),
  row('hikari.util.ConcurrentBag.borrow', 'lease-wait', 'waits for a HikariCP connection', 'HIKARI; fixtures (Hikari incident)', {
    kind: 'hikaricp',
    pool: 'HikariCP',
  }),
  row('druid.pool.DruidDataSource.takeLast', 'lease-wait', 'waits for a Druid connection', 'DRUID; fixtures (Druid incident)', {
    kind: 'druid',
    pool: 'Druid',
  }),
  row('druid.pool.DruidDataSource.pollLast', 'lease-wait', 'waits for a Druid connection', 'DRUID', { kind: 'druid', pool: 'Druid' }),
  row('pool2.impl.GenericObjectPool.borrowObject', 'lease-wait', 'waits for an object of a commons-pool2 pool', 'POOL2; fixtures (commons-pool2 incident)', {
    kind: 'commons-pool2',
    pool: 'commons-pool2',
  }),
  row('java.util.concurrent.Semaphore.acquire', 'lease-wait', 'waits for a Semaphore permit', 'jdk', SEMAPHORE),
  row('java.util.concurrent.Semaphore.acquireUninterruptibly', 'lease-wait', 'waits for a Semaphore permit', 'jdk', SEMAPHORE),
  row('java.util.concurrent.Semaphore.tryAcquire', 'lease-wait', 'waits for a Semaphore permit', 'jdk', SEMAPHORE),

  // --- shutdown hooks at work. Spring's hook thread changed its name across versions (Thread-N,
  // SpringContextShutdownHook, SpringApplicationShutdownHook): it is known by its frames.
  row('DubboShutdownHook.run', 'shutdown-hook', "Dubbo's shutdown hook", 'DUBBO; fixtures (shutdown-ordering incident)', { hook: 'dubbo' }),
  row('DubboShutdownHook.doDestroy', 'shutdown-hook', "Dubbo's shutdown hook", 'DUBBO', { hook: 'dubbo' }),
  row('DubboShutdownHook.destroyAll', 'shutdown-hook', "Dubbo's shutdown hook", 'DUBBO', { hook: 'dubbo' }),
  row('support.AbstractApplicationContext.doClose', 'shutdown-hook', "Spring's context closing", 'SPRING', { hook: 'spring' }),
  row('support.AbstractApplicationContext$1.run', 'shutdown-hook', "Spring's shutdown hook", 'SPRING', { hook: 'spring' }),
  row('support.AbstractApplicationContext$2.run', 'shutdown-hook', "Spring's shutdown hook", 'SPRING', { hook: 'spring' }),
  row('boot.SpringApplicationShutdownHook.run', 'shutdown-hook', "Spring Boot's shutdown hook", 'SPRING', { hook: 'spring' }),
  row('java.lang.ApplicationShutdownHooks.runHooks', 'shutdown-hook', "the JVM's shutdown hooks", 'jdk', { hook: 'jvm' }),
  row('java.lang.Shutdown.exit', 'shutdown-hook', 'the JVM exiting', 'jdk', { hook: 'jvm' }),
  row('java.lang.Shutdown.runHooks', 'shutdown-hook', "the JVM's shutdown hooks", 'jdk', { hook: 'jvm' }),

  // --- a client call with a connection in hand
  row('execchain.MainClientExec.execute', 'client-call', 'an Apache HttpClient 4 exchange', 'HTTPCLIENT'),
  row('impl.classic.MainClientExec.execute', 'client-call', 'an Apache HttpClient 5 exchange', 'HTTPCLIENT'),
  row('okhttp3.internal.http.CallServerInterceptor.intercept', 'client-call', 'an OkHttp exchange', 'OKHTTP'),
  // Client libraries by package: a read beneath one is a call to a remote service (work), never a
  // thread waiting for its own input.
  row('sun.net.www.protocol.http.*', 'client-call', 'an HttpURLConnection call', 'jdk'),
  row('java.sql.DriverManager.getConnection', 'client-call', 'a JDBC connection being opened (java.sql.DriverManager)', 'jdk'),
  row('jdk.internal.net.http.*', 'client-call', 'a java.net.http.HttpClient call', 'jdk'),
  row('org.apache.http.*', 'client-call', 'an Apache HttpClient 4 call', 'HTTPCLIENT'),
  row('org.apache.hc.*', 'client-call', 'an Apache HttpClient 5 call', 'HTTPCLIENT'),
  row('okhttp3.*', 'client-call', 'an OkHttp call', 'OKHTTP'),
  row('oracle.jdbc.*', 'client-call', 'an Oracle JDBC call', 'JDBC'),
  row('oracle.net.*', 'client-call', 'an Oracle JDBC call', 'JDBC'),
  row('com.mysql.*', 'client-call', 'a MySQL JDBC call', 'JDBC'),
  row('org.mariadb.jdbc.*', 'client-call', 'a MariaDB JDBC call', 'JDBC'),
  row('org.postgresql.*', 'client-call', 'a PostgreSQL JDBC call', 'JDBC'),
  row('com.microsoft.sqlserver.*', 'client-call', 'a SQL Server JDBC call', 'JDBC'),
  row('net.sourceforge.jtds.*', 'client-call', 'a jTDS JDBC call', 'JDBC'),
  row('com.ibm.db2.*', 'client-call', 'a DB2 JDBC call', 'JDBC; TDFG (DB2 JCC reads in hung WebSphere threads)'),
  row('org.h2.*', 'client-call', 'an H2 database call', 'JDBC'),
  row('org.apache.derby.client.*', 'client-call', 'a Derby network client call', 'JDBC'),
  row('redis.clients.jedis.*', 'client-call', 'a Redis (Jedis) call', 'CLIENTS'),
  row('com.mongodb.*', 'client-call', 'a MongoDB call', 'CLIENTS'),
  row('net.spy.memcached.*', 'client-call', 'a memcached call', 'CLIENTS'),
  row('javax.naming.*', 'client-call', 'a JNDI or LDAP call', 'jdk'),
  row('com.sun.jndi.*', 'client-call', 'a JNDI or LDAP call', 'jdk'),
  row('sun.rmi.transport.StreamRemoteCall.*', 'client-call', 'an RMI call to a remote object', 'jdk'),

  // --- the appenders' frames where a logging thread waits
  row('ch.qos.logback.core.AsyncAppenderBase.put*', 'logging-wait', "an AsyncAppender's full queue (neverBlock=false)", 'LOGBACK', {
    framework: 'logback',
    queue: true,
  }),
  row(
    'ch.qos.logback.core.OutputStreamAppender.*',
    'logging-wait',
    "an OutputStreamAppender's lock (file, console and socket appenders write under it)",
    'LOGBACK',
    {
      framework: 'logback',
    },
  ),
  row('ch.qos.logback.core.AppenderBase.doAppend', 'logging-wait', "a synchronized appender's monitor (AppenderBase.doAppend)", 'LOGBACK', {
    framework: 'logback',
  }),
  row('org.apache.log4j.AsyncAppender.append*', 'logging-wait', "an AsyncAppender's full buffer (blocking=true)", 'LOG4J (log4j 1)', {
    framework: 'log4j 1',
    queue: true,
  }),
  row('org.apache.log4j.AppenderSkeleton.doAppend', 'logging-wait', "an appender's monitor (AppenderSkeleton.doAppend is synchronized)", 'LOG4J (log4j 1)', {
    framework: 'log4j 1',
  }),
  row('org.apache.log4j.Category.callAppenders', 'logging-wait', "a logger's monitor (Category.callAppenders is synchronized per logger)", 'LOG4J (log4j 1)', {
    framework: 'log4j 1',
  }),
  row('org.apache.logging.log4j.core.appender.AsyncAppender.*', 'logging-wait', "an AsyncAppender's full queue (blocking=true)", 'LOG4J', {
    framework: 'log4j 2',
    queue: true,
  }),
  row(
    'com.lmax.disruptor.MultiProducerSequencer.next',
    'logging-wait',
    "the async loggers' full ring buffer (the default queue-full policy waits)",
    'DISRUPTOR; LOG4J',
    {
      framework: 'log4j 2 async loggers',
      queue: true,
    },
  ),
  row(
    'org.apache.logging.log4j.core.appender.OutputStreamManager.*',
    'logging-wait',
    "an OutputStreamManager's monitor (file, console and socket appenders write under it)",
    'LOG4J; fixtures (logging incident)',
    { framework: 'log4j 2' },
  ),
  // Log4j 2's layouts encode straight into the manager's buffer under the manager's monitor (direct encoders, 2.6+).
  row(
    'org.apache.logging.log4j.core.layout.TextEncoderHelper.*',
    'logging-wait',
    "an OutputStreamManager's monitor (the layout encodes into it)",
    'LOG4J; fixtures (log4j2-socket-contention)',
    {
      framework: 'log4j 2',
    },
  ),
  row('org.apache.logging.log4j.core.layout.StringBuilderEncoder.*', 'logging-wait', "an OutputStreamManager's monitor (the layout encodes into it)", 'LOG4J', {
    framework: 'log4j 2',
  }),
  row(
    'org.apache.logging.log4j.core.layout.ByteBufferDestinationHelper.*',
    'logging-wait',
    "an OutputStreamManager's monitor (the layout writes into it)",
    'LOG4J',
    {
      framework: 'log4j 2',
    },
  ),
  row(
    'org.apache.logging.log4j.core.appender.rolling.RollingFileManager.*',
    'logging-wait',
    "a RollingFileManager's monitor (rolling file appenders write under it)",
    'LOG4J',
    {
      framework: 'log4j 2',
    },
  ),
  row('org.apache.logging.log4j.core.appender.AbstractOutputStreamAppender.*', 'logging-wait', "an output stream appender's lock", 'LOG4J', {
    framework: 'log4j 2',
  }),
  row('java.util.logging.StreamHandler.publish', 'logging-wait', "a StreamHandler's monitor (publish is synchronized)", 'jdk', {
    framework: 'java.util.logging',
  }),
  row('java.util.logging.FileHandler.publish', 'logging-wait', "a FileHandler's monitor (publish is synchronized)", 'jdk', { framework: 'java.util.logging' }),
  row('java.util.logging.ConsoleHandler.publish', 'logging-wait', "a ConsoleHandler's monitor (publish is synchronized)", 'jdk', {
    framework: 'java.util.logging',
  }),

  // --- the loggers' APIs, what the application calls: a thread waiting above one waits inside a log
  // call, whatever lies between (a vendor's appender, a subclass of a manager no row names). Frames
  // show the class that declares the method, so each facade is named by its adapters' classes.
  row('org.slf4j.*', 'logging-wait', 'a log call through SLF4J', 'SLF4J', { framework: 'slf4j', api: true }),
  row('org.apache.logging.slf4j.*', 'logging-wait', "a log call through SLF4J into Log4j 2 (log4j-slf4j-impl's Log4jLogger)", 'LOG4J-API', {
    framework: 'log4j 2',
    api: true,
  }),
  ...loggerCalls('org.apache.logging.log4j.spi.AbstractLogger', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'log', 'printf'], 'LOG4J-API', 'log4j 2'),
  row('org.apache.logging.log4j.internal.DefaultLogBuilder.log', 'logging-wait', 'a log call through Log4j 2 (LogBuilder.log)', 'LOG4J-API', {
    framework: 'log4j 2',
    api: true,
  }),
  row('org.apache.logging.log4j.jul.*', 'logging-wait', 'a java.util.logging call bridged to Log4j 2', 'LOG4J-API', { framework: 'log4j 2', api: true }),
  row('org.apache.logging.log4j.jcl.*', 'logging-wait', 'a commons-logging call bridged to Log4j 2', 'LOG4J-API', { framework: 'log4j 2', api: true }),
  ...loggerCalls('org.apache.log4j.Category', ['debug', 'info', 'warn', 'error', 'fatal', 'log', 'l7dlog'], 'LOG4J-1', 'log4j 1'),
  ...loggerCalls('org.apache.log4j.Logger', ['trace'], 'LOG4J-1', 'log4j 1'),
  ...loggerCalls('ch.qos.logback.classic.Logger', ['trace', 'debug', 'info', 'warn', 'error', 'log'], 'LOGBACK-CLASSIC', 'logback'),
  ...loggerCalls(
    'java.util.logging.Logger',
    ['severe', 'warning', 'info', 'config', 'fine', 'finer', 'finest', 'log', 'logp', 'logrb', 'entering', 'exiting', 'throwing'],
    'jdk',
    'java.util.logging',
  ),
  row('org.apache.commons.logging.*', 'logging-wait', 'a log call through commons-logging', 'JCL', { framework: 'commons-logging', api: true }),
  row('org.jboss.logging.*', 'logging-wait', 'a log call through JBoss Logging', 'JBOSS-LOGGING', { framework: 'JBoss Logging', api: true }),
  ...loggerCalls('org.jboss.logmanager.Logger', ['severe', 'warning', 'info', 'config', 'fine', 'log', 'logRaw'], 'JBOSS-LOGGING', 'JBoss LogManager'),

  // --- event loops' run methods
  row('io.netty.channel.nio.NioEventLoop.run', 'event-loop', 'a Netty NIO event loop (Dubbo, Vert.x, Reactor Netty and gRPC run on it)', 'NETTY', {
    framework: 'Netty (NIO)',
    ownPackages: NETTY_OWN,
  }),
  row('io.netty.channel.epoll.EpollEventLoop.run', 'event-loop', 'a Netty epoll event loop', 'NETTY', { framework: 'Netty (epoll)', ownPackages: NETTY_OWN }),
  row('io.netty.channel.kqueue.KQueueEventLoop.run', 'event-loop', 'a Netty kqueue event loop', 'NETTY', {
    framework: 'Netty (kqueue)',
    ownPackages: NETTY_OWN,
  }),
  row('io.netty.channel.SingleThreadIoEventLoop.run', 'event-loop', 'a Netty 4.2 I/O event loop', 'NETTY (4.2)', {
    framework: 'Netty 4.2',
    ownPackages: NETTY_OWN,
  }),
  row('org.jboss.netty.channel.socket.nio.AbstractNioSelector.run', 'event-loop', 'a Netty 3 NIO worker', 'NETTY (3.x); fixtures (Dubbo 2.5 with Netty 3)', {
    framework: 'Netty 3',
    ownPackages: ['org.jboss.netty.'],
  }),
  row('org.xnio.nio.WorkerThread.run', 'event-loop', 'an XNIO I/O thread (Undertow runs non-dispatched handlers on it)', 'XNIO', {
    framework: 'XNIO (Undertow, WildFly)',
    ownPackages: ['org.xnio.', 'io.undertow.server.protocol.', 'io.undertow.conduits.'],
  }),
  row('org.glassfish.grizzly.nio.SelectorRunner.run', 'event-loop', 'a Grizzly selector runner', 'GRZ', {
    framework: 'Grizzly (GlassFish, Payara)',
    ownPackages: ['org.glassfish.grizzly.'],
  }),

  // --- blocking I/O although RUNNABLE (the JVM reports threads in native reads as runnable)
  row('SocketInputStream.socketRead0', 'blocking-io', 'a blocking socket read', 'jdk'),
  row('SocketInputStream.socketRead', 'blocking-io', 'a blocking socket read', 'jdk'),
  row('SocketInputStream.read', 'blocking-io', 'a blocking socket read', 'jdk'),
  row('SocketOutputStream.socketWrite0', 'blocking-io', 'a blocking socket write', 'jdk'),
  row('SocketDispatcher.read0', 'blocking-io', 'a blocking socket read', 'jdk'),
  row('SocketDispatcher.write0', 'blocking-io', 'a blocking socket write', 'jdk'),
  row('NioSocketImpl.park', 'blocking-io', 'a blocking socket read', 'jdk'),
  row('NioSocketImpl.timedRead', 'blocking-io', 'a blocking socket read', 'jdk'),
  row('NioSocketImpl.read', 'blocking-io', 'a blocking socket read', 'jdk'),
  row('FileDispatcherImpl.read0', 'blocking-io', 'a blocking file read', 'jdk'),
  row('FileDispatcherImpl.write0', 'blocking-io', 'a blocking file write', 'jdk'),
  row('FileDispatcherImpl.pread0', 'blocking-io', 'a blocking file read', 'jdk'),

  // --- the JDK's own code (and the runtimes' own packages)
  row('java.*', 'jdk-code', "the JDK's own classes", 'jdk'),
  row('javax.*', 'jdk-code', "the JDK's own classes (and Java EE APIs)", 'jdk'),
  row('jdk.*', 'jdk-code', "the JDK's own classes", 'jdk'),
  row('sun.*', 'jdk-code', "the JDK's own classes", 'jdk'),
  row('jrockit.*', 'jdk-code', "JRockit's own classes", 'JRockit'),
  row('com.ibm.oti.*', 'jdk-code', "OpenJ9's own classes", 'OPENJ9'),
  row('com.sun.proxy.*', 'jdk-code', "the JDK's dynamic proxies", 'jdk'),
];

/** A logger class's level methods, each a `logging-wait` row of its API. */
function loggerCalls(cls: string, methods: readonly string[], source: string, framework: string): KnowledgeRow[] {
  const simple = cls.slice(cls.lastIndexOf('.') + 1);
  return methods.map((m) => row(`${cls}.${m}`, 'logging-wait', `a log call through ${framework} (${simple}.${m})`, source, { framework, api: true }));
}
