/**
 * `--redact`: addresses, host names, user names and query strings masked in every output format,
 * the same value always the same token; Java names, versions and times left alone.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { renderJson } from '../../src/report/json.js';
import { Redactor, redactReport } from '../../src/report/redact.js';
import { REPORT_FORMATS } from '../../src/report/renderers.js';
import { analyse, analyseIncident, FIXTURES, INCIDENTS, runCli, scratchDir, TEST_TOOL } from '../helpers.js';

const cli = runCli;

describe('Redactor', () => {
  it('masks addresses, hosts, users and query strings with stable tokens', async () => {
    const r = new Redactor();
    expect(r.text('DubboServerHandler-10.0.0.7:20880-thread-5')).toBe('DubboServerHandler-ip-1:20880-thread-5');
    expect(r.text('dubbo://10.0.0.7:20880/com.acme.DemoService?anyhost=true&application=demo')).toBe('dubbo://ip-1:20880/com.acme.DemoService?query-1');
    expect(r.text('{}->http://alice:secret@api.pay.acme.com:8443/v1/charge?card=4111')).toBe('{}->http://user-1:***@host-1:8443/v1/charge?query-2');
    expect(r.text('api.pay.acme.com is slow')).toBe('host-1 is slow');
    expect(r.text('jdbc:mysql://db-primary.prod:3306/orders?user=app')).toBe('jdbc:mysql://host-2:3306/orders?query-3');
    expect(r.text('/home/alice/dumps/x.txt')).toBe('/home/user-1/dumps/x.txt');
    expect(r.text('C:\\Users\\bob\\dump.txt')).toBe('C:\\Users\\user-2\\dump.txt');
    expect(r.text('mail bob@acme.com')).toBe('mail user-2@host-3');
    expect(r.text('fe80::1ff:fe23:4567:890a')).toBe('ip-2');
    expect(r.text('qtp1-45 - /api/orders?customer=bob')).toBe('qtp1-45 - /api/orders?query-4');
    expect(r.text('redis.cache.svc:6379 down')).toBe('host-4:6379 down');
    expect(r.text('owner=carol')).toBe('owner=user-3');
  });

  it('leaves Java names, source lines, versions and times alone', async () => {
    const r = new Redactor();
    for (const s of [
      'com.acme.Foo.run(Foo.java:12)',
      'org.slf4j.Logger.info(Logger.java:10)',
      'java.util.concurrent.ThreadPoolExecutor$Worker',
      'jdk.internal.misc.Unsafe.park',
      'OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode)',
      '2026-11-30 10:20:30',
      'version 1.8.0.292',
      'Foo::bar',
      'localhost:8080',
    ])
      expect(r.text(s)).toBe(s);
  });

  it('a report with nothing to mask comes back the same (the deep copy loses nothing)', async () => {
    const report = { tool: TEST_TOOL, ...(await analyse([join(FIXTURES, 'deadlock', 'dump-1.txt')])) };
    const redacted = JSON.parse(renderJson(redactReport(report)));
    expect(redacted.redacted).toBe(true);
    delete redacted.redacted;
    expect(redacted).toEqual(JSON.parse(renderJson(report)));
  });

  it('one value, one token, across the model and the findings', async () => {
    const { model, findings } = await analyseIncident(join(INCIDENTS, 'http-pool-starvation'));
    const json = renderJson(redactReport({ tool: TEST_TOOL, model, findings }));
    expect(json).not.toContain('127.0.0.1');
    const doc = JSON.parse(json);
    const pool = doc.model.connectionPools.find((p: { kind: string }) => p.kind === 'apache-httpclient-4');
    expect(pool.route).toMatch(/^http:\/\/ip-1:\d+$/);
    expect(doc.findings.find((f: { rule: string }) => f.rule === 'connection-pool-starvation').subject).toContain(pool.route);
    expect(doc.findings.length).toBe(findings.length);
  });
});

describe('--redact in every format', { timeout: 120_000 }, () => {
  // Hand-written: a dump whose thread names and lock classes carry what must not leave the company
  // (a format edge case, not a JVM's output).
  const secrets = ['10.42.7.19', 'orders-db.prod.acme.internal', 'alice', 's3cr3t', 'token=abcdef', 'bob@acme.com'];
  const lines = ['2026-11-30 10:00:00', 'Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):', ''];
  const names = [
    'http-nio-10.42.7.19-8080-exec-1',
    'jdbc:postgresql://orders-db.prod.acme.internal:5432/orders',
    'GET /api/export?token=abcdef',
    'mailer bob@acme.com',
    'https://alice:s3cr3t@orders-db.prod.acme.internal/x',
    'loader /home/alice/app',
  ];
  names.forEach((n, i) => {
    for (let k = 0; k < 4; k++) {
      lines.push(
        `"${n} ${k}" #${i * 10 + k} prio=5 os_prio=0 tid=0x${i}${k} nid=0x${i}${k} waiting for monitor entry  [0x1]`,
        '   java.lang.Thread.State: BLOCKED (on object monitor)',
        '\tat com.acme.Cls.m(Cls.java:1)',
        `\t- waiting to lock <0x0000000000000abc> (a com.acme.Lock)`,
        '\tat java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
        '',
      );
    }
  });
  lines.push(
    '"owner" #99 prio=5 os_prio=0 tid=0x99 nid=0x99 runnable  [0x1]',
    '   java.lang.Thread.State: RUNNABLE',
    '\tat com.acme.Cls.m(Cls.java:1)',
    '\t- locked <0x0000000000000abc> (a com.acme.Lock)',
    '',
  );
  const dir = scratchDir('redact');
  const file = join(dir, 'jstack.txt');
  writeFileSync(file, lines.join('\n'));

  for (const format of REPORT_FORMATS) {
    it(format, async () => {
      const plain = await cli(['analyze', '--fail-on', 'never', '--format', format, file]);
      const masked = await cli(['analyze', '--fail-on', 'never', '--redact', '--format', format, file]);
      expect(masked.code).toBe(0);
      // The unredacted report does carry them (text shows the first few threads only, JSON all), so
      // their absence below means something.
      const shown = secrets.filter((s) => plain.stdout.includes(s));
      expect(shown.length).toBeGreaterThanOrEqual(format === 'json' ? secrets.length : 2);
      for (const s of secrets) expect(masked.stdout).not.toContain(s);
      expect(masked.stdout).toMatch(/ip-1/);
      expect(masked.stdout).toMatch(/host-1/);
      expect(masked.stdout).toMatch(/lock-contention/);
      expect(masked.stdout).toMatch(/Redacted/i);
    });
  }

  it('batch: the same host gets the same token in every line', async () => {
    const r = await cli(['batch', '--no-progress', '--redact', '--fail-on', 'never', file, join(INCIDENTS, 'http-pool-starvation')]);
    expect(r.code).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const s of secrets) expect(r.stdout).not.toContain(s);
    expect(r.stdout).not.toContain('127.0.0.1');
    expect(out.every((l: { redacted?: boolean }) => l.redacted === true)).toBe(true);
    expect(JSON.stringify(out[0])).toContain('ip-1');
    expect(JSON.stringify(out[1])).toContain('ip-2'); // 127.0.0.1, a different address from the first incident's
  });
});
