import type { Rule } from './rule.js';
import { counterEvidence, counterFacts, maxInside, nearLimit } from './support/counter-evidence.js';
import { plural } from './support/evidence.js';

/** A counter at its limit with the threads really inside: saturation, not a leak. */
export const limitSaturated: Rule = {
  meta: {
    id: 'limit-saturated',
    defaultSeverity: 'warning',
    title: 'Concurrency limit saturated',
    description: 'A counter is at its executes/actives limit and the threads really are inside the method: the limit is doing its job under load.',
    remedy: 'Find why calls are slow (what the threads inside wait for); raise the limit only if the service and what it calls can take more at once.',
    remedyKind: 'search',
    options: {
      nearLimitRatio: { type: 'number', min: 0, max: 1, default: 0.9, description: 'The counter is judged when active >= limit x this.' },
      minInsideRatio: { type: 'number', min: 0, max: 1, default: 0.5, description: 'Saturation when more than active x this threads are inside the method.' },
    },
  },
  check({ model, options }) {
    const near = Number(options['nearLimitRatio']);
    const ratio = Number(options['minInsideRatio']);
    return model.counters.flatMap((c) => {
      if (!nearLimit(c, near)) return [];
      const inside = maxInside(c);
      if (c.threadsInside.length === 0) {
        // Thread dumps were given, but none is of this heap's JVM (the model's notes say why).
        const otherJvm = model.inputs.some((i) => i.kind === 'threads');
        const why = otherJvm ? "The thread dumps given are not of this heap's JVM" : 'No thread dump of this JVM was given';
        return [
          {
            subject: c.name,
            message:
              `${c.name}: the in-flight counter is at ${c.active} of its limit ${c.limit}. ${why}, so ` +
              'a leak cannot be told from saturation: add jstack output taken next to the heap dump.',
            facts: counterFacts(c),
            evidence: counterEvidence(model, c, `active ${c.active}, limit ${c.limit}`),
          },
        ];
      }
      if (inside <= c.active * ratio) return [];
      return [
        {
          subject: c.name,
          message:
            `${c.name}: ${c.active} calls in flight against a limit of ${c.limit}, and ${plural(inside, 'thread')} really ` +
            `${inside === 1 ? 'is' : 'are'} inside the method: the service is saturated, the counter is telling the truth.`,
          facts: counterFacts(c),
          evidence: counterEvidence(model, c, `active ${c.active}, limit ${c.limit}`),
        },
      ];
    });
  },
};
