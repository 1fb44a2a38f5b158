/**
 * What the analyses need from a heap: the classes whose every instance is loaded, the classes whose
 * static fields are followed, and how many references deep. Data, so the loader, `extract` and
 * user-declared counters (config) all speak the same language. Depth counts references followed from
 * the root; the next node of a linked structure and a string's characters cost nothing.
 */
import type { LoadPlan } from './hprof/hprof-loader.js';

export const ANALYSIS_PLAN: LoadPlan = {
  roots: [
    // Dubbo in-flight counters (2.6 and 2.7/3.x) and the URLs that carry their limits.
    { className: 'com.alibaba.dubbo.rpc.RpcStatus', depth: 3 },
    { className: 'org.apache.dubbo.rpc.RpcStatus', depth: 3 },
    { className: 'com.alibaba.dubbo.common.URL', depth: 5 },
    { className: 'org.apache.dubbo.common.URL', depth: 6 },
    // 3.x keeps method limits in URLParam.METHOD_PARAMETERS, a map of maps ({key -> {method -> value}}):
    // eight references down to the values. From URLParam, so the depth does not run into URL.attributes.
    { className: 'org.apache.dubbo.common.url.component.URLParam', depth: 8 },
    // Executors: state, queue and workers; each worker's lock state and thread.
    { className: 'java.util.concurrent.ThreadPoolExecutor', depth: 4 },
    { className: 'java.util.concurrent.ThreadPoolExecutor$Worker', depth: 3 },
    { className: 'java.lang.Thread', depth: 2 },
    // Class loaders and their names: what the memory report's classes defined by several loaders name them by.
    { className: 'java.lang.ClassLoader', depth: 1 },
    // Connection pools: Apache HttpClient 4 and 5, OkHttp, HikariCP, Druid, commons-pool2; semaphores.
    { className: 'org.apache.http.pool.AbstractConnPool', depth: 6 },
    // HttpClient 5 routes reach their host name one level deeper (HttpHost -> Host -> name).
    { className: 'org.apache.hc.core5.pool.StrictConnPool', depth: 8 },
    { className: 'org.apache.hc.core5.pool.LaxConnPool', depth: 8 },
    { className: 'okhttp3.Dispatcher', depth: 3 },
    { className: 'okhttp3.ConnectionPool', depth: 3 },
    { className: 'okhttp3.internal.connection.RealConnectionPool', depth: 3 },
    { className: 'com.zaxxer.hikari.pool.HikariPool', depth: 5 },
    { className: 'com.alibaba.druid.pool.DruidDataSource', depth: 2 },
    { className: 'org.apache.commons.pool2.impl.GenericObjectPool', depth: 4 },
    { className: 'java.util.concurrent.Semaphore', depth: 3 },
    // Asynchronous log appenders and their queues (logging-contention): logback, log4j 2, log4j 1.
    { className: 'ch.qos.logback.core.AsyncAppenderBase', depth: 3 },
    { className: 'org.apache.logging.log4j.core.appender.AsyncAppender', depth: 3 },
    { className: 'org.apache.log4j.AsyncAppender', depth: 2 },
    // Shutdown: the application context's state.
    { className: 'org.springframework.context.support.AbstractApplicationContext', depth: 2 },
  ],
  statics: [
    { className: 'com.alibaba.dubbo.rpc.RpcStatus', depth: 8 },
    { className: 'org.apache.dubbo.rpc.RpcStatus', depth: 8 },
    // The JVM's registered shutdown hooks (an IdentityHashMap of threads).
    { className: 'java.lang.ApplicationShutdownHooks', depth: 4 },
    // The finalizer queue and its length (finalizer-backlog): the queue object alone, not its nodes.
    { className: 'java.lang.ref.Finalizer', depth: 1 },
  ],
};
