/**
 * Recording Dubbo's QoS console. The console here is a stand-in written for the test (a socket that
 * answers as Dubbo 2.7's telnet console does: the `dubbo>` prompt, `ls` tables, `count`): the
 * protocol's format, not a Dubbo provider.
 */
import { createServer, type Server } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { qosLog, servicesIn } from '../../src/capture/dubbo-qos.js';
import { looksLikeLogLine } from '../../src/input/sniff.js';

const LS = [
  'As Provider side:',
  '+----------------------------------+---+',
  '|       Provider Service Name      |PUB|',
  '+----------------------------------+---+',
  '|org.apache.dubbo.demo.DemoService | N |',
  '+----------------------------------+---+',
  'As Consumer side:',
  '+---------------------+---+',
  '|Consumer Service Name|NUM|',
  '+---------------------+---+',
].join('\r\n');

describe('Dubbo QoS', () => {
  let server: Server;
  let port = 0;
  const asked: string[] = [];
  beforeAll(async () => {
    server = createServer((s) => {
      s.write('\r\n   ___  __  __ ___   ___   ____     \r\ndubbo>');
      s.on('data', (d) => {
        const cmd = d.toString().trim();
        asked.push(cmd);
        if (cmd === 'exit') return void s.end();
        const answer =
          cmd === 'ls'
            ? LS
            : cmd === 'ps'
              ? '20880'
              : cmd.startsWith('count ')
                ? '+--------+-------+\r\n| method | total |\r\n| sayHello | 1523 |'
                : `Unsupported command: ${cmd}`;
        s.write(`${answer}\r\ndubbo>`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  it('records ls, ps and the count of each provided service, as a log with dated lines', async () => {
    const log = await qosLog('127.0.0.1', port, 5000);
    expect(asked.slice(0, 2)).toEqual(['ls', 'ps']);
    expect(asked).toContain('count org.apache.dubbo.demo.DemoService');
    expect(log).toMatch(/Dubbo QoS 127\.0\.0\.1:\d+ > ls\n[\s\S]*org\.apache\.dubbo\.demo\.DemoService/);
    expect(log).toMatch(/> ps\n20880/);
    expect(log).toMatch(/> count org\.apache\.dubbo\.demo\.DemoService\n[\s\S]*sayHello \| 1523/);
    // Read back as a log of the incident (its first line is a dated log line).
    expect(looksLikeLogLine(log.split('\n')[0]!)).toBe(true);
  });

  it('names the services a provider lists', () => {
    expect(servicesIn(LS)).toEqual(['org.apache.dubbo.demo.DemoService']);
  });

  it('says what to check when no console answers', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const free = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(qosLog('127.0.0.1', free, 2000)).rejects.toThrow(/no Dubbo QoS console at 127\.0\.0\.1:\d+ \(ECONNREFUSED\): is qos\.enable on/);
  });
});
