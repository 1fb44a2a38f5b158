/**
 * Virtual threads pinned to their carriers. The idea: a virtual thread that blocks leaves its
 * carrier for others, except where it cannot (inside a class initialiser or a native frame, and
 * before JDK 24 inside synchronized); the JDK then parks the carrier itself, which its stack shows
 * as `VirtualThread.parkOnCarrierThread`. A pinned carrier runs nothing else; when the scheduler's
 * carriers are all pinned, no virtual thread runs at all. The frame that pins says why.
 */
import type { Evidence } from '../model/findings.js';
import type { ThreadRef } from '../model/model.js';
import type { StackFrame, ThreadEntry } from '../model/thread-dump.js';
import type { FindingDraft, Rule } from './rule.js';
import { plural, threadEvidence } from './support/evidence.js';
import { threadsByStack } from './support/threads-by-stack.js';
import { runsContinuation } from './support/virtual-threads.js';

export const virtualThreadPinning: Rule = {
  meta: {
    id: 'virtual-thread-pinning',
    defaultSeverity: 'warning',
    title: 'Virtual threads pinned to their carriers',
    description:
      'Virtual threads parked while they cannot leave their carrier (VirtualThread.parkOnCarrierThread in their stack): inside a class ' +
      'initialiser or a native frame, or synchronized before JDK 24; names what pins each one and what it waits for; error when every carrier ' +
      'of the scheduler is pinned (no virtual thread can run), with the virtual threads waiting for a carrier (JSON thread dumps list them).',
    remedy:
      'Do not block where a virtual thread cannot unmount: move waits out of static initialisers and native ' +
      'callbacks; before JDK 24 replace synchronized around blocking calls with ReentrantLock (or upgrade to ' +
      'JDK 24+). -Djdk.tracePinnedThreads (JDK 21-23) or the jdk.VirtualThreadPinned JFR event names the places.',
    options: {},
  },
  check({ model }) {
    const last = model.dumps.length - 1;
    if (last < 0) return [];
    // Nothing pinned in any dump (most dumps): answered from the stack groups, before any thread is read.
    const pinnedByDump = model.dumps.map((_, d) => threadsByStack(model, d, parkedOnCarrierStack));
    if (pinnedByDump.every((p) => p.length === 0)) return [];
    // The JSON dump of the same moment lists virtual threads that text dumps leave out: prefer the dump that has most.
    const virtualCounts = model.dumps.map((d) => {
      let n = 0;
      for (const t of d.threads) if (t.virtual) n++;
      return n;
    });
    const dumpIndex = virtualCounts.reduce((best, n, i) => (n > virtualCounts[best]! ? i : best), last);
    const threads = model.dumps[dumpIndex]!.threads;
    const pinned = pinnedByDump[dumpIndex]!;
    if (pinned.length === 0) return [];
    const carriers = threadsByStack(model, dumpIndex, runsContinuation).filter((i) => !threads[i]!.virtual);
    // A virtual thread parked on its carrier is mounted: each holds one carrier (a text dump shows it
    // on the carrier itself, a JSON dump lists the two apart).
    const pinnedCarriers = carriers.length > 0 ? Math.min(carriers.length, pinned.length) : pinned.length;
    const ready = threads.filter((th) => th.virtual && th.state === 'RUNNABLE' && th.frames.length === 0).length;
    const allPinned = carriers.length > 0 && pinnedCarriers >= carriers.length;
    const ref = (i: number): ThreadRef => model.threadRefs[dumpIndex]![i]!;
    const described = pinned.map((i) => {
      const th = threads[i]!;
      const who = th.virtual
        ? `virtual thread ${th.name || `#${th.javaId ?? '?'}`}`
        : `"${th.name}" (carrying virtual thread #${th.carriedVirtualThread ?? '?'})`;
      return { i, text: `${who} waits in ${waitsIn(th)}, pinned by ${pinnedBy(th)}` };
    });
    const evidence: Evidence[] = described.slice(0, 30).map((d) => threadEvidence(model, ref(d.i), d.text));
    const draft: FindingDraft = {
      subject: 'virtual thread scheduler',
      ...(allPinned ? { severity: 'error' as const } : {}),
      message:
        `${plural(pinned.length, 'virtual thread is', 'virtual threads are')} parked on ` +
        `${pinned.length === 1 ? 'its carrier' : 'their carriers'}, unable to unmount: ` +
        described
          .slice(0, 5)
          .map((d) => d.text)
          .join('; ') +
        `${described.length > 5 ? '; ...' : ''}.` +
        (carriers.length > 0
          ? ` ${allPinned ? 'Every one' : `${pinnedCarriers}`} of the scheduler's ${plural(carriers.length, 'carrier')} ` +
            `${allPinned ? 'is pinned: no other virtual thread can run' : pinnedCarriers === 1 ? 'is pinned' : 'are pinned'}.`
          : '') +
        (ready > 0 ? ` ${plural(ready, 'virtual thread is', 'virtual threads are')} ready to run and ${ready === 1 ? 'waits' : 'wait'} for a carrier.` : ''),
      facts: {
        pinned: pinned.length,
        carriers: carriers.length,
        pinnedCarriers,
        waitingForCarrier: ready,
        pinnedBy: [...new Set(pinned.map((i) => pinnedBy(threads[i]!)))],
      },
      evidence,
      impact: pinned.length * 2 + Math.round(ready / 5),
    };
    return [draft];
  },
};

const PARKED_ON_CARRIER = 'java.lang.VirtualThread.parkOnCarrierThread';

/** Why the virtual thread could not unmount: the frame below its park that pins it. */
function pinnedBy(th: ThreadEntry): string {
  const at = th.frames.findIndex((f) => f.qualified === PARKED_ON_CARRIER);
  const below = th.frames.slice(at + 1);
  const clinit = below.find((f) => f.method === '<clinit>');
  if (clinit !== undefined) return `a class initialiser (${clinit.qualified}), which a virtual thread cannot leave`;
  const held = th.locks.find((l) => l.kind === 'locked' && l.frameIndex > at);
  if (held !== undefined)
    return `synchronized on ${held.lock?.className ?? 'a monitor'} in ${th.frames[held.frameIndex]?.qualified ?? '?'} (pins before JDK 24)`;
  const native = below.find((f) => f.location === 'Native Method' && !f.qualified.startsWith('jdk.internal.vm.Continuation'));
  if (native !== undefined) return `a native frame (${native.qualified})`;
  return 'a frame that pins it (the dump does not say which)';
}

/** What it waits for while pinned: the first frame below the JDK's parking machinery. */
function waitsIn(th: ThreadEntry): string {
  const at = th.frames.findIndex((f) => f.qualified === PARKED_ON_CARRIER);
  const f = th.frames
    .slice(at + 1)
    .find((x) => !/^java\.lang\.(?:VirtualThread|System\$\d)|^java\.util\.concurrent\.locks\.(?:LockSupport|AbstractQueuedSynchronizer)/.test(x.qualified));
  return f?.qualified ?? '?';
}

/**
 * Whether a virtual thread (or the carrier showing it mounted) is parked on its carrier. The frame
 * sits under the JDK's parking calls (Unsafe.park, LockSupport.park, VirtualThread.park...), so it is
 * looked for near the top only. Asked once per group of identical stacks (threadsByStack).
 */
function parkedOnCarrierStack(frames: readonly StackFrame[]): boolean {
  const end = Math.min(frames.length, 16);
  for (let i = 0; i < end; i++) if (frames[i]!.qualified === PARKED_ON_CARRIER) return true;
  return false;
}
