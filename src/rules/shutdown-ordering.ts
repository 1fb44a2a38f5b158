import type { Rule } from './rule.js';
import { plural, threadEvidence } from './evidence.js';

/**
 * JVM shutdown hooks run concurrently: Dubbo's hook drains requests while Spring's hook destroys the
 * beans those requests use (incident 2). Seen in a thread dump taken during shutdown.
 */
export const shutdownOrdering: Rule = {
  meta: {
    id: 'shutdown-ordering',
    defaultSeverity: 'error',
    title: 'Shutdown hooks race',
    description: "Dubbo's and Spring's shutdown hooks run at the same time: Spring destroys beans (data sources, clients) while Dubbo still lets requests finish, so they fail.",
    remedy:
      "Let one hook own the shutdown: stop Spring Boot from registering its hook (SpringApplication.setRegisterShutdownHook(false)) and close the context after Dubbo's shutdown completes, or use a Dubbo version that hooks into Spring's ContextClosedEvent (2.7+/3.x) with its own hook disabled.",
    options: {},
  },
  check({ model }) {
    return model.shutdown.dumps.flatMap((d) => {
      const dubbo = d.hooks.find((h) => h.kind === 'dubbo');
      const spring = d.hooks.find((h) => h.kind === 'spring');
      if (!dubbo || !spring) return [];
      return [
        {
          subject: `dump ${d.dump}`,
          message:
            `Both shutdown hooks run at once: Dubbo's "${dubbo.thread.name}" (${dubbo.doing}) and Spring's "${spring.thread.name}" (${spring.doing})` +
            (d.inFlight.length > 0 ? `, with ${plural(d.inFlight.length, 'request')} still executing: they lose the beans Spring destroys.` : '.'),
          facts: {
            dubboHook: dubbo.thread.name,
            dubboHookDoing: dubbo.doing,
            springHook: spring.thread.name,
            springHookDoing: spring.doing,
            requestsInFlight: d.inFlight.length,
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
    });
  },
};
