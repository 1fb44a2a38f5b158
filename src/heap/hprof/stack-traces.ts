/**
 * The thread stacks an HPROF file carries: FRAME records (method, signature, source file, class serial,
 * line) and TRACE records (a thread's frame ids, top first), joined to the threads through
 * ROOT_THREAD_OBJ's trace serial. HotSpot writes one trace per live thread; lock lines are not recorded.
 */
import type { HeapThreadRoot } from '../heap-model.js';
import type { ClassMetadata } from './class-metadata.js';
import type { HprofVisitor } from './parser.js';

interface FrameRecord {
  readonly methodNameId: number;
  readonly sourceFileId: number;
  readonly classSerial: number;
  readonly line: number;
}

/** HPROF line-number codes below 1 (the HPROF spec and HotSpot's dumper). */
const LINE_COMPILED = -2;
const LINE_NATIVE = -3;

export class StackTraceCollector {
  private readonly frames = new Map<number, FrameRecord>();
  private readonly traces = new Map<number, readonly number[]>();
  private readonly roots: Array<{ objectId: number; threadSerial: number; traceSerial: number }> = [];

  visitor(): Pick<HprofVisitor, 'frame' | 'trace'> {
    return {
      frame: (id, methodNameId, _signatureId, sourceFileId, classSerial, line) => this.frames.set(id, { methodNameId, sourceFileId, classSerial, line }),
      trace: (serial, _threadSerial, frameIds) => this.traces.set(serial, frameIds),
    };
  }

  /** A ROOT_THREAD_OBJ sub-record: the thread object, its serial, and the serial of its stack trace. */
  threadRoot(objectId: number, threadSerial: number, traceSerial: number): void {
    this.roots.push({ objectId, threadSerial, traceSerial });
  }

  /** The thread roots, each with its frames written the way a thread dump writes them. */
  threadRoots(meta: ClassMetadata): HeapThreadRoot[] {
    const text = new Map<number, string>();
    const frameText = (id: number): string => {
      let t = text.get(id);
      if (t === undefined) {
        t = this.describe(id, meta);
        text.set(id, t);
      }
      return t;
    };
    return this.roots.map((r) => {
      const ids = this.traces.get(r.traceSerial);
      // Trace serial 0 or a trace with no frames (JVM-internal threads): no stack to show.
      return ids === undefined || ids.length === 0
        ? { objectId: r.objectId, threadSerial: r.threadSerial }
        : { objectId: r.objectId, threadSerial: r.threadSerial, frames: ids.map(frameText) };
    });
  }

  private describe(frameId: number, meta: ClassMetadata): string {
    const f = this.frames.get(frameId);
    if (f === undefined) return `(unknown frame 0x${frameId.toString(16)})`;
    const classId = meta.classIdBySerial.get(f.classSerial);
    const cls = classId === undefined ? `(class serial ${f.classSerial})` : meta.className(classId);
    const method = meta.symbol(f.methodNameId) ?? '(unknown method)';
    return `${cls}.${method}(${frameLocation(f, meta)})`;
  }
}

/** What a thread dump prints between the parentheses: `File.java:12`, `Native Method`, `Unknown Source`. */
function frameLocation(f: FrameRecord, meta: ClassMetadata): string {
  if (f.line === LINE_NATIVE) return 'Native Method';
  const file = f.sourceFileId === 0 ? undefined : meta.symbol(f.sourceFileId);
  if (file === undefined || file.length === 0) return f.line === LINE_COMPILED ? 'Compiled Method' : 'Unknown Source';
  // Unknown (-1) and compiled (-2) frames with a file print the file alone, as jstack does.
  return f.line > 0 ? `${file}:${f.line}` : file;
}
