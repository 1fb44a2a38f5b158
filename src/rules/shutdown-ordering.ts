import type { Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';

/**
 * JVM shutdown hooks run concurrently: Dubbo's hook drains requests while Spring's hook destroys the
 * beans those requests use (incident 2). Seen in a thread dump taken during shutdown.
 */
export const shutdownOrdering: Rule = {
  meta: {
    id: 'shutdown-ordering',
    defaultSeverity: 'error',
    title: 'Shutdown hooks race',
    description:
      "Dubbo's and Spring's shutdown hooks run at the same time: Spring destroys beans " +
      '(data sources, clients) while Dubbo still lets requests finish, so they fail.',
    remedy:
      'Let one hook own the shutdown: stop Spring Boot from registering its hook (SpringApplication.setRegisterShutdownHook(false)) and close the ' +
      "context after Dubbo's shutdown completes, or use a Dubbo version that hooks " +
      "into Spring's ContextClosedEvent (2.7+/3.x) with its own hook disabled.",
    options: {},
  },
  check({ model }) {
    // One race, however many dumps show it: the last dump that does speaks for it.
    const racing = model.shutdown.dumps.filter((d) => d.hooks.some((h) => h.kind === 'dubbo') && d.hooks.some((h) => h.kind === 'spring'));
    const d = racing[racing.length - 1];
    if (d === undefined) return [];
    const dubbo = d.hooks.find((h) => h.kind === 'dubbo')!;
    const spring = d.hooks.find((h) => h.kind === 'spring')!;
    const inFlight = Math.max(...racing.map((r) => r.inFlight.length));
    return [
      {
        subject: 'shutdown hooks',
        message:
          `Both shutdown hooks run at once${racing.length > 1 ? ` (in ${racing.length} dumps)` : ''}: Dubbo's ` +
          `"${dubbo.thread.name}" (${dubbo.doing}) and Spring's "${spring.thread.name}" (${spring.doing})` +
          (inFlight > 0 ? `, with ${plural(inFlight, 'request')} still executing: they lose the beans Spring destroys.` : '.'),
        facts: {
          dubboHook: dubbo.thread.name,
          dubboHookDoing: dubbo.doing,
          springHook: spring.thread.name,
          springHookDoing: spring.doing,
          requestsInFlight: inFlight,
          requestsInFlightPerDump: racing.map((r) => r.inFlight.length),
          dumps: racing.map((r) => r.dump),
          hooks: d.hooks.map((h) => `${h.kind}: ${h.thread.name}`),
        },
        evidence: [
          threadEvidence(model, dubbo.thread, 'Dubbo shutdown hook'),
          threadEvidence(model, spring.thread, 'Spring shutdown hook'),
          ...d.hooks.filter((h) => h.kind === 'jvm').map((h) => threadEvidence(model, h.thread, 'JVM running the hooks')),
          ...d.inFlight.slice(0, 20).map((t) => threadEvidence(model, t, 'request in flight')),
        ],
      },
    ];
  },
};
