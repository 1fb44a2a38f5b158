/**
 * Where the knowledge comes from: every row's `source` names keys of this table, and each key is a
 * public document (a repository path at a commit, a vendor's page) or this repository's own
 * fixtures. Facts were read there; no code or text was copied.
 */

export interface Source {
  readonly what: string;
  /** A public address: `https://...`, or `owner/repo: path` on GitHub, or `fixtures/...` of this repository. */
  readonly at: string;
}

export const SOURCES: Readonly<Record<string, Source>> = {
  jdk: { what: "The JDK's own sources (OpenJDK)", at: 'https://github.com/openjdk/jdk' },
  JRockit: {
    what: "Oracle JRockit's thread dump format and its own classes",
    at: 'https://docs.oracle.com/cd/E13150_01/jrockit_jvm/jrockit/geninfo/diagnos/thread_basics.html',
  },
  'TL-AM': { what: 'ThreadLogic advisories', at: 'sparameswaran/threadlogic: src/java/com/oracle/ateam/threadlogic/resources/AdvisoryMap.xml' },
  'TL-NG': {
    what: 'ThreadLogic non-WebLogic thread groups',
    at: 'sparameswaran/threadlogic: src/java/com/oracle/ateam/threadlogic/resources/NonWLSGroups.xml',
  },
  'TL-TA': { what: 'ThreadLogic thread advisory', at: 'sparameswaran/threadlogic: src/java/com/oracle/ateam/threadlogic/advisories/ThreadAdvisory.java' },
  'TL-MUX': {
    what: 'ThreadLogic WebLogic muxer group',
    at: 'sparameswaran/threadlogic: src/java/com/oracle/ateam/threadlogic/advisories/WLSMuxerThreadGroup.java',
  },
  TL: { what: 'ThreadLogic (WebLogic thread groups)', at: 'sparameswaran/threadlogic: src/java/com/oracle/ateam/threadlogic/advisories/ThreadGroup.java' },
  TDA: { what: 'TDA issue 21 (Tomcat main thread in StandardServer.await)', at: 'https://github.com/irockel/tda/issues/21' },
  TDFG: { what: "IBM ThreadDumpFlameGrapher's idle stacks", at: 'IBM/ThreadDumpFlameGrapher: flamegraph.awk' },
  JMX: { what: "JMXer's request wait signatures", at: 'cool8519/JMXer: src/dal/tool/trace/jmxer/cli/helper/RecordRequestWaitSignatures.java' },
  W: { what: "Watson's thread filters", at: 'drauf/watson: src/common/threadFilters.tsx' },
  ES: { what: "Elasticsearch hot threads' idle frames", at: 'elastic/elasticsearch: server/src/main/java/org/elasticsearch/monitor/jvm/HotThreads.java' },
  IJ: {
    what: "IntelliJ's thread dump parser",
    at: 'JetBrains/intellij-community: platform/threadDumpParser/src/com/intellij/threadDumpParser/ThreadDumpParser.java',
  },
  'IBM-KB': {
    what: 'IBM: identifying idle threads in WebSphere thread dumps',
    at: 'https://ibm.com/support/pages/identifying-idle-threads-thread-dumps-taken-against-websphere-application-server',
  },
  'IBM-WC': {
    what: 'IBM: identifying Web container threads in a javacore',
    at: 'https://public.dhe.ibm.com/software/webserver/appserv/library/v50/com.ibm.support.was50.doc.zip',
  },
  YAT: { what: 'yatda, a JBoss EAP thread dump analyser', at: 'aogburn/yatda: yatda.sh' },
  JST: { what: "jstall's thread activity categoriser", at: 'parttimenerd/jstall: src/main/java/me/bechberger/jstall/analyzer/ThreadActivityCategorizer.java' },
  ATL: {
    what: 'Atlassian: the source of unnamed thread pools',
    at: 'https://confluence.atlassian.com/confkb/how-to-identify-the-source-of-unnamed-thread-pools-1047540076.html',
  },
  SAPN: { what: 'SAP note on J2EE Engine system threads, reproduced', at: 'http://learnsaponline.blogspot.com/2013_12_10_archive.html' },
  NETTY: { what: "Netty's event loops, executors and timer", at: 'netty/netty: transport/src/main/java/io/netty/channel/nio/NioEventLoop.java' },
  GRZ: {
    what: "Grizzly's selector runner and thread pools",
    at: 'eclipse-ee4j/glassfish-grizzly: modules/grizzly/src/main/java/org/glassfish/grizzly/threadpool/',
  },
  XNIO: { what: "XNIO's I/O worker thread", at: 'xnio/xnio: nio-impl/src/main/java/org/xnio/nio/WorkerThread.java' },
  JBT: { what: "JBoss Threads' EnhancedQueueExecutor", at: 'jbossas/jboss-threads: src/main/java/org/jboss/threads/EnhancedQueueExecutor.java' },
  JETTY: {
    what: "Jetty's QueuedThreadPool, ReservedThreadExecutor and ManagedSelector",
    at: 'jetty/jetty.project: jetty-util/src/main/java/org/eclipse/jetty/util/thread/',
  },
  TOMCAT: { what: "Tomcat's connectors and executor", at: 'apache/tomcat: java/org/apache/tomcat/util/' },
  SERVLET: { what: 'The Servlet API', at: 'jakartaee/servlet: api/src/main/java/jakarta/servlet/http/HttpServlet.java' },
  SPRING: { what: "Spring Framework's scheduling and JMS listener containers", at: 'spring-projects/spring-framework' },
  'SPRING-KAFKA': { what: "Spring for Apache Kafka's listener container", at: 'spring-projects/spring-kafka' },
  KAFKA: { what: "Kafka's client network selector and heartbeat thread", at: 'apache/kafka: clients/src/main/java/org/apache/kafka/' },
  AKKA: {
    what: "Akka's and Pekko's scheduler and dispatcher",
    at: 'apache/pekko: actor/src/main/scala/org/apache/pekko/actor/LightArrayRevolverScheduler.scala',
  },
  GRPC: { what: "gRPC Java's call handlers", at: 'grpc/grpc-java: stub/src/main/java/io/grpc/stub/' },
  JERSEY: { what: "Jersey's server runtime", at: 'eclipse-ee4j/jersey: core-server/src/main/java/org/glassfish/jersey/server/ServerRuntime.java' },
  RESTEASY: { what: "RESTEasy's dispatcher", at: 'resteasy/resteasy: resteasy-core/src/main/java/org/jboss/resteasy/core/SynchronousDispatcher.java' },
  QUARTZ: { what: "Quartz's scheduler thread, job shell and thread pool", at: 'quartz-scheduler/quartz: quartz/src/main/java/org/quartz/' },
  GUAVA: { what: "Guava's AbstractFuture", at: 'google/guava: guava/src/com/google/common/util/concurrent/AbstractFuture.java' },
  GRADLE: { what: "Gradle's worker process machinery", at: 'gradle/gradle: platforms/core-execution/workers/' },
  FELIX: { what: "Apache Felix's framework and SCR", at: 'apache/felix-dev: framework/src/main/java/org/apache/felix/framework/Felix.java' },
  DUBBO: {
    what: "Apache Dubbo's thread names, futures and threadless executor",
    at: 'apache/dubbo: dubbo-remoting/dubbo-remoting-api/src/main/java/org/apache/dubbo/remoting/',
  },
  OKHTTP: { what: "OkHttp's connection pool and Okio's timeout watchdog", at: 'square/okhttp: okhttp/src/main/kotlin/okhttp3/ConnectionPool.kt' },
  HTTPCLIENT: { what: "Apache HttpClient's connection pools", at: 'apache/httpcomponents-core: httpcore5/src/main/java/org/apache/hc/core5/pool/' },
  HIKARI: { what: "HikariCP's ConcurrentBag", at: 'brettwooldridge/HikariCP: src/main/java/com/zaxxer/hikari/util/ConcurrentBag.java' },
  DRUID: { what: "Druid's DruidDataSource", at: 'alibaba/druid: core/src/main/java/com/alibaba/druid/pool/DruidDataSource.java' },
  POOL2: { what: "Commons Pool 2's GenericObjectPool", at: 'apache/commons-pool: src/main/java/org/apache/commons/pool2/impl/GenericObjectPool.java' },
  LOGBACK: { what: "Logback's appenders", at: 'qos-ch/logback: logback-core/src/main/java/ch/qos/logback/core/' },
  LOG4J: { what: "Log4j 1 and 2's appenders and managers", at: 'apache/logging-log4j2: log4j-core/src/main/java/org/apache/logging/log4j/core/appender/' },
  SLF4J: {
    what: "SLF4J's Logger API, its helpers and its bindings' adapters (package org.slf4j)",
    at: 'qos-ch/slf4j: slf4j-api/src/main/java/org/slf4j/Logger.java',
  },
  'LOG4J-API': {
    what: "Log4j 2's logger API (AbstractLogger, the fluent LogBuilder) and its bridges (slf4j, JUL, commons-logging)",
    at: 'apache/logging-log4j2: log4j-api/src/main/java/org/apache/logging/log4j/spi/AbstractLogger.java',
  },
  'LOG4J-1': { what: "Log4j 1's Category and Logger", at: 'https://logging.apache.org/log4j/1.x/apidocs/org/apache/log4j/Category.html' },
  'LOGBACK-CLASSIC': { what: "Logback's Logger (logback-classic)", at: 'qos-ch/logback: logback-classic/src/main/java/ch/qos/logback/classic/Logger.java' },
  JCL: { what: 'Apache Commons Logging (and Spring JCL) log adapters', at: 'apache/commons-logging: src/main/java/org/apache/commons/logging/' },
  'JBOSS-LOGGING': {
    what: "JBoss Logging's Logger and JBoss LogManager's Logger",
    at: 'jboss-logging/jboss-logging: src/main/java/org/jboss/logging/Logger.java',
  },
  DISRUPTOR: {
    what: "LMAX Disruptor's sequencer (Log4j 2 async loggers)",
    at: 'LMAX-Exchange/disruptor: src/main/java/com/lmax/disruptor/MultiProducerSequencer.java',
  },
  JDBC: {
    what: 'The JDBC drivers by their packages (Oracle, MySQL, MariaDB, PostgreSQL, SQL Server, jTDS, DB2, H2, Derby)',
    at: 'https://docs.oracle.com/javase/8/docs/technotes/guides/jdbc/',
  },
  CLIENTS: { what: 'Client libraries of Redis (Jedis), MongoDB and memcached, by their packages', at: 'https://github.com/redis/jedis' },
  SWT: {
    what: "SWT's UI thread loop (Display.readAndDispatch and sleep)",
    at: 'eclipse-platform/eclipse.platform.swt: bundles/org.eclipse.swt/Eclipse SWT/win32/org/eclipse/swt/widgets/Display.java',
  },
  OPENJ9: { what: "Eclipse OpenJ9's javacore and thread names", at: 'eclipse-openj9/openj9: runtime/rasdump/javadump.cpp' },
  corpus: { what: 'Real third-party thread dumps this project is tested on (repositories listed)', at: 'docs/knowledge-sources.md' },
  fixtures: { what: "This project's real-JVM fixtures (programs that set an idiom up, dumped by the JDK's tools)", at: 'fixtures/README.md' },
};
