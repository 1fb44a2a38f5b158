/**
 * Dubbo's QoS console (telnet, port 22222 by default, localhost only unless opened up): a running
 * provider answers `ls` (its services), `ps` (its ports) and `count <service>` (calls in flight and
 * done per method). capture records the answers as a log of the incident, each under a dated line
 * that names the command.
 */
import { connect } from 'node:net';

/** Every answer ends with the console's prompt. */
const PROMPT = 'dubbo>';

/** Sends `commands` one after another and returns each answer (up to the next prompt). */
function askQos(host: string, port: number, commands: readonly string[], timeoutMs: number): Promise<Array<{ command: string; answer: string }>> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const answers: Array<{ command: string; answer: string }> = [];
    let buffer = '';
    let next = -1; // -1: waiting for the first prompt
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the Dubbo QoS console at ${host}:${port} did not answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(
        new Error(
          `no Dubbo QoS console at ${host}:${port} (${(e as NodeJS.ErrnoException).code ?? e.message}): ` +
            'is qos.enable on, and the port right (dubbo.application.qos-port)?',
        ),
      );
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let at: number;
      while ((at = buffer.indexOf(PROMPT)) >= 0) {
        const text = buffer.slice(0, at);
        buffer = buffer.slice(at + PROMPT.length);
        if (next >= 0) answers.push({ command: commands[next]!, answer: text.replace(/^\r?\n/, '').trimEnd() });
        next++;
        if (next >= commands.length) {
          clearTimeout(timer);
          socket.end('exit\r\n');
          resolve(answers);
          return;
        }
        socket.write(`${commands[next]}\r\n`);
      }
    });
  });
}

/** Service interfaces an `ls` answer names (`org.apache.dubbo.demo.DemoService`), each once. */
export function servicesIn(ls: string): string[] {
  // Word by word, each word tested whole: a pattern searched along the text read a long run of letters once per position.
  return [...new Set(ls.split(/[^\w.$]+/).filter((w) => /^(?:[a-z_]\w*\.)+[A-Z][\w$]*$/.test(w)))];
}

const two = (n: number, w = 2) => String(n).padStart(w, '0');
const logTime = (d: Date) =>
  `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}` +
  ` ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${two(d.getMilliseconds(), 3)}`;

/** `ls`, `ps`, then `count` of each provided service (at most 20): the log text capture writes. */
export async function qosLog(host: string, port: number, timeoutMs: number): Promise<string> {
  const first = await askQos(host, port, ['ls', 'ps'], timeoutMs);
  const services = servicesIn(first[0]?.answer ?? '').slice(0, 20);
  const counts =
    services.length > 0
      ? await askQos(
          host,
          port,
          services.map((s) => `count ${s}`),
          timeoutMs,
        )
      : [];
  const at = new Date();
  return [...first, ...counts].map((a) => `${logTime(at)} INFO [dumpsleuth capture] Dubbo QoS ${host}:${port} > ${a.command}\n${a.answer}\n`).join('');
}
