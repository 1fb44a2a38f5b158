/** Frames that are a wait though the thread reads RUNNABLE: a blocking read or write of a socket or a file. */
import type { ThreadEntry } from '../model/thread-dump.js';

const BLOCKING_IO = new RegExp(
  '(?:' +
    /socketRead0|SocketDispatcher\.(?:read0|write0)|NioSocketImpl\.(?:park|timedRead|read)|/.source +
    /FileDispatcherImpl\.(?:read0|write0|pread0)|SocketInputStream\.(?:read|socketRead)|socketWrite0/.source +
    ')$',
);

/** Whether the thread's top frame is a blocking socket or file call. */
export function inBlockingIo(th: ThreadEntry): boolean {
  return BLOCKING_IO.test(th.frames[0]?.qualified ?? '');
}
