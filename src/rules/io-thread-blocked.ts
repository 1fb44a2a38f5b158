/**
 * Event-loop (I/O) threads held in application code. The idea: an event loop serves many
 * connections by returning to its selector between short callbacks; one caught waiting (for a
 * lock, a future, a sleep, a blocking read) or running the same application code across dumps is
 * not serving any of its connections, so every one of them is frozen. Which threads are loops, and
 * which code is the loop's own, is data (threads/event-loops.ts); a loop in its selector is idle.
 */
import type { Evidence } from '../model/findings.js';
import type { ThreadRef } from '../model/model.js';
import type { ThreadEntry } from '../model/thread-dump.js';
import { inBlockingIo } from '../threads/blocking-calls.js';
import { applicationFrameOf, type EventLoopKind, eventLoopOf } from '../threads/event-loops.js';
import { poolNameOf } from '../threads/pool-naming.js';
import type { FindingDraft, Rule } from './rule.js';
import { CauseLinks } from './support/cause-links.js';
import { plural, threadEvidence } from './support/evidence.js';
import { lockSubject, lockWaits } from './support/held-up.js';
import { threadsByStack } from './support/threads-by-stack.js';

export const ioThreadBlocked: Rule = {
  meta: {
    id: 'io-thread-blocked',
    defaultSeverity: 'warning',
    title: 'Event-loop threads held in application code',
    description:
      "Event-loop (I/O) threads (Netty NioEventLoop/EpollEventLoop, so Dubbo's NettyServerWorker, Vert.x, Reactor Netty, gRPC; XNIO/Undertow; " +
      'Grizzly) that are not in their selector but waiting for a lock, a future, a sleep or a blocking read in application code, or running the ' +
      'same application code in every dump of a series: every connection such a loop serves is frozen. Error when every loop of the group is held.',
    remedy:
      'Never block an event loop: hand the work to a worker pool (Dubbo: dispatcher=all or message, not direct; Vert.x: executeBlocking or a worker ' +
      'verticle; Netty: a separate EventExecutorGroup for blocking handlers; Undertow: dispatch to a worker), and find what the held loops wait for.',
    options: {},
  },
  check({ model }) {
    const last = model.dumps.length - 1;
    if (last < 0) return [];
    const dump = model.dumps[last]!;
    const held: HeldLoop[] = [];
    const loopsByGroup = new Map<string, number>();
    for (const thread of threadsByStack(model, last, (frames) => eventLoopOf({ frames }) !== undefined)) {
      const th = dump.threads[thread]!;
      const loop = eventLoopOf(th)!;
      const group = poolNameOf(th.name) ?? th.name;
      loopsByGroup.set(group, (loopsByGroup.get(group) ?? 0) + 1);
      if (model.activity[last]![thread]!.activity === 'idle') continue;
      const h = heldIn(th, loop);
      if (h === undefined) continue;
      // Running (not waiting) counts only when it ran the same application code in an earlier dump too.
      if (th.state === 'RUNNABLE' && !inBlockingIo(th)) {
        const before = model.dumps.slice(0, last).some((d) => d.threads.some((o) => o.name === th.name && heldIn(o, loop)?.appFrame === h.appFrame));
        if (!before) continue;
      }
      held.push({ ref: { dump: last, thread, name: th.name }, th, loop, ...h });
    }
    const waits = lockWaits(model, last);
    const groups = new Map<string, HeldLoop[]>();
    for (const h of held) {
      const g = poolNameOf(h.th.name) ?? h.th.name;
      groups.set(g, [...(groups.get(g) ?? []), h]);
    }
    return [...groups].map(([group, list]): FindingDraft => {
      const total = loopsByGroup.get(group) ?? list.length;
      // How many dumps each was held in the same application code (a series says for how long).
      const dumpsHeld = list.map(
        (h) => model.dumps.filter((d) => d.threads.some((o) => o.name === h.th.name && heldIn(o, h.loop)?.appFrame === h.appFrame)).length,
      );
      const causedBy = new CauseLinks();
      for (const h of list) {
        const lock = waits.lockOf(h.ref.thread);
        if (lock !== undefined) causedBy.add('lock-contention', lockSubject(lock));
      }
      const evidence: Evidence[] = list.map((h, k) => threadEvidence(model, h.ref, `${h.doing}${dumpsHeld[k]! > 1 ? `, in ${dumpsHeld[k]} dumps` : ''}`));
      const code = [...new Set(list.map((h) => h.appFrame).filter((f) => f !== undefined))];
      return {
        subject: group,
        ...(list.length >= total ? { severity: 'error' as const } : {}),
        message:
          `${list.length} of ${plural(total, `${list[0]!.loop.framework} event loop`)} of ${group} ` +
          `${list.length === 1 ? 'is' : 'are'} not in ${total === 1 ? 'its' : 'their'} selector but held in application code: ` +
          `${list.map((h) => `"${h.th.name}" ${h.doing}`).join('; ')}.` +
          (Math.max(...dumpsHeld) > 1 ? ` Held so in up to ${Math.max(...dumpsHeld)} of ${model.dumps.length} dumps.` : '') +
          ' Every connection these loops serve waits meanwhile.',
        facts: {
          group,
          framework: list[0]!.loop.framework,
          loops: total,
          held: list.length,
          threads: list.map((h) => h.th.name),
          applicationCode: code,
          dumpsHeld,
        },
        evidence,
        causedBy: causedBy.list(),
        // A loop serves many connections: each held one weighs like several threads.
        impact: list.length * 4,
      };
    });
  },
};

interface HeldLoop {
  readonly ref: ThreadRef;
  readonly th: ThreadEntry;
  readonly loop: EventLoopKind;
  readonly appFrame: string | undefined;
  /** What it does instead of serving its connections, in words. */
  readonly doing: string;
}

function heldIn(th: ThreadEntry, loop: EventLoopKind): { appFrame: string | undefined; doing: string } | undefined {
  const appFrame = applicationFrameOf(th, loop);
  const top = th.frames[0]?.qualified ?? '';
  if (th.state === 'BLOCKED') return { appFrame, doing: `BLOCKED on a monitor in ${appFrame ?? top}` };
  if (th.state === 'WAITING' || th.state === 'TIMED_WAITING') {
    // Waiting in the loop's own code with no application frame above it is the loop's own business (a task queue, its select).
    if (appFrame === undefined) return undefined;
    return { appFrame, doing: `${th.state} (${th.stateDetail ?? 'waiting'}) in ${top} under ${appFrame}` };
  }
  if (th.state === 'RUNNABLE' && appFrame !== undefined && inBlockingIo(th)) return { appFrame, doing: `in a blocking read (${top}) under ${appFrame}` };
  if (th.state === 'RUNNABLE' && appFrame !== undefined) return { appFrame, doing: `RUNNABLE in ${appFrame}` };
  return undefined;
}
