/**
 * `--redact`: masks what identifies a company's machines and people (IP addresses, host names, user
 * names, query strings) so a report can leave the company. One Redactor per run gives each distinct
 * value one token (`host-1`, `ip-2`, `user-1`, `query-3`) in every place and every format, so the
 * report still says "these 40 threads wait on the same host".
 *
 * What is left alone, on purpose: Java class and package names (`com.acme.Foo` is reversed-domain
 * but says nothing a stack trace does not need), thread states, numbers, lock addresses.
 */

import { replaceAt, urlStarts } from '../model/text-scan.js';
import type { Report } from './report.js';

type Category = 'host' | 'ip' | 'user' | 'query';

/** Last labels that make a dotted name a host name rather than a Java package or file. */
const HOST_SUFFIXES = new Set([
  'com',
  'net',
  'org',
  'io',
  'edu',
  'gov',
  'biz',
  'info',
  'co',
  'cn',
  'de',
  'uk',
  'fr',
  'jp',
  'ru',
  'br',
  'in',
  'nl',
  'us',
  'eu',
  'cloud',
  'local',
  'localdomain',
  'internal',
  'intra',
  'intranet',
  'lan',
  'corp',
  'home',
  'svc',
  'cluster',
  'prod',
  'dev',
  'test',
  'example',
]);

/** Dotted names followed by `:port` that are not hosts: source files in stack frames (`Foo.java:12`). */
const FILE_SUFFIXES = new Set([
  'java',
  'kt',
  'scala',
  'groovy',
  'clj',
  'class',
  'jar',
  'js',
  'ts',
  'py',
  'rb',
  'go',
  'c',
  'cpp',
  'h',
  'xml',
  'properties',
  'yml',
  'yaml',
  'json',
  'log',
  'txt',
]);

/**
 * A URL from its scheme (tried only where one starts, `urlStarts`): scheme, authority, path, query;
 * the authority is taken apart in code (`authorityOf`), as a pattern it backtracked on long runs.
 */
const URL = /([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'<>]*)((?:\/[^\s?#"'<>]*)?)(\?[^\s#"'<>]*)?/iy;
/** An e-mail address from its `@` back (tried only where a local part starts, `emailStarts`). */
const EMAIL = /([a-z0-9._%+-]+)@((?:[a-z0-9-]+\.)+[a-z]{2,})\b/iy;

interface Authority {
  readonly user: string | undefined;
  readonly password: boolean;
  readonly host: string;
  readonly port: string;
  /** What follows the host and port that is not theirs (`,x` of `host,x`): part of the path. */
  readonly rest: string;
}

const HOST_END = new Set([...':,;()[]{}|\\'].map((c) => c.charCodeAt(0)));

/** `user:password@host:port` read in one pass; undefined when there is no host. */
function authorityOf(text: string): Authority | undefined {
  const at = text.indexOf('@');
  const userinfo = at > 0 ? text.slice(0, at) : undefined;
  if (userinfo !== undefined && userinfo.startsWith(':')) return undefined;
  const colon = userinfo?.indexOf(':') ?? -1;
  const hostPart = at > 0 ? text.slice(at + 1) : text;
  let end = 0;
  if (hostPart.startsWith('[')) {
    end = hostPart.indexOf(']') + 1;
    if (end <= 1 || !/^\[[0-9a-f:.]+\]$/i.test(hostPart.slice(0, end))) return undefined;
  } else {
    while (end < hostPart.length && !HOST_END.has(hostPart.charCodeAt(end))) end++;
  }
  if (end === 0) return undefined;
  const portMatch = /^:\d{1,5}/.exec(hostPart.slice(end));
  const port = portMatch?.[0] ?? '';
  return {
    user: userinfo === undefined ? undefined : colon < 0 ? userinfo : userinfo.slice(0, colon),
    password: colon >= 0,
    host: hostPart.slice(0, end),
    port,
    rest: hostPart.slice(end + port.length),
  };
}

/** Where an e-mail's local part can start: before each `@`, the first character of the run of local-part characters. */
function* emailStarts(text: string): Generator<number> {
  let from = 0;
  for (;;) {
    const at = text.indexOf('@', from);
    if (at < 0) return;
    let start = at;
    while (start > 0 && /[a-z0-9._%+-]/i.test(text.charAt(start - 1))) start--;
    // A word boundary before it, as `\b` asked: a local part that starts with a non-word character starts after it.
    while (start < at && !/\w/.test(text.charAt(start))) start++;
    if (start < at) yield start;
    from = at + 1;
  }
}
const HOME = /(\/home\/|\/Users\/|[A-Za-z]:\\Users\\|[A-Za-z]:\\Documents and Settings\\)([^/\\\s"'<>]+)/g;
const IPV4 = /(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?!\.?\d)/g;
const IPV6 = /(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:.])/gi;
const DOTTED = /(?<![\w.-])((?:[a-z0-9-]+\.)+([a-z][a-z0-9-]*))(:\d{1,5})?(?![\w-]|\.[\w-]|\()/gi;
const QUERY = /(?<=[\w/.%~-])\?([\w.%~-]+=[^\s#"'<>]*)/g;
const KEY_VALUE_USER = /\b(user(?:name)?|login|uid|owner)=([^\s&;,"'<>]+)/gi;

export class Redactor {
  private readonly tokens = new Map<Category, Map<string, string>>();
  private readonly done = new Map<string, string>();
  private readonly objects = new WeakMap<object, unknown>();

  /** The token for a value: the same value always gets the same token. */
  token(category: Category, value: string): string {
    let byValue = this.tokens.get(category);
    if (byValue === undefined) this.tokens.set(category, (byValue = new Map()));
    const key = category === 'host' || category === 'user' ? value.toLowerCase() : value;
    let t = byValue.get(key);
    if (t === undefined) byValue.set(key, (t = `${category}-${byValue.size + 1}`));
    return t;
  }

  private host(name: string): string {
    if (name.startsWith('[')) return `[${this.token('ip', name.slice(1, -1).toLowerCase())}]`;
    if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return this.token('ip', name);
    if (/^(localhost|0\.0\.0\.0)$/i.test(name)) return name;
    return this.token('host', name);
  }

  /** One string, redacted. */
  text(s: string): string {
    if (s.length < 3) return s;
    const cached = this.done.get(s);
    if (cached !== undefined) return cached;
    let out = replaceAt(s, urlStarts(s), URL, (m) => {
      const [whole, scheme, authorityText, pathText, query] = m as unknown as [string, string, string, string, string | undefined];
      const a = authorityOf(authorityText);
      if (a === undefined) return whole;
      const who = a.user === undefined ? '' : `${this.token('user', a.user)}${a.password ? ':***' : ''}@`;
      const q = query === undefined ? '' : `?${this.token('query', query.slice(1))}`;
      return `${scheme}${who}${this.host(a.host)}${a.port}${this.homes(a.rest + pathText)}${q}`;
    });
    out = replaceAt(out, emailStarts(out), EMAIL, (m) => `${this.token('user', m[1]!)}@${this.token('host', m[2]!)}`);
    out = this.homes(out);
    out = out.replace(KEY_VALUE_USER, (_m, key: string, user: string) => `${key}=${/^(user|host|ip|query)-\d+$/.test(user) ? user : this.token('user', user)}`);
    out = out.replace(QUERY, (_m, query: string) => `?${this.token('query', query)}`);
    out = out.replace(IPV4, (m, a: string, b: string, c: string, d: string) => ([a, b, c, d].every((x) => Number(x) <= 255) ? this.token('ip', m) : m));
    out = out.replace(IPV6, (m) => (isIpv6(m) ? this.token('ip', m.toLowerCase()) : m));
    out = out.replace(DOTTED, (m, name: string, last: string, port: string | undefined) => {
      const lastLabel = last.toLowerCase();
      if (/^(host|ip|user|query)-\d+$/.test(name)) return m;
      // Host names are written in lower case; Java names carry a capitalised class name.
      if (name !== name.toLowerCase()) return m;
      const isHost = HOST_SUFFIXES.has(lastLabel) || (port !== undefined && !FILE_SUFFIXES.has(lastLabel));
      return isHost ? `${this.token('host', name)}${port ?? ''}` : m;
    });
    if (this.done.size < 200_000) this.done.set(s, out);
    return out;
  }

  private homes(s: string): string {
    return s.replace(HOME, (_m, prefix: string, user: string) => `${prefix}${this.token('user', user)}`);
  }

  /**
   * A deep copy of plain data with every string redacted (object keys are ours and stay). Shared
   * objects stay shared, so interned stack frames are redacted once.
   */
  value<T>(v: T): T {
    if (typeof v === 'string') return this.text(v) as T;
    if (v === null || typeof v !== 'object') return v;
    const seen = this.objects.get(v as object);
    if (seen !== undefined) return seen as T;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      this.objects.set(v, out);
      for (const x of v) out.push(this.value(x));
      return out as T;
    }
    const out: Record<string, unknown> = {};
    this.objects.set(v as object, out);
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = this.value(x);
    return out as T;
  }
}

function isIpv6(m: string): boolean {
  const groups = m.split(':');
  // Times (`10:20:30`) and ratios have few groups and no hex letters; an address has `::` or many groups.
  return (m.includes('::') && groups.some((g) => g.length > 0)) || (groups.length >= 6 && groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)));
}

/** The report with every string from the inputs redacted; one Redactor keeps tokens consistent across it. */
export function redactReport(report: Report, redactor = new Redactor()): Report {
  return {
    tool: report.tool,
    model: redactor.value(report.model),
    findings: redactor.value(report.findings),
    redacted: true,
    ...(report.config !== undefined ? { config: report.config } : {}),
  };
}
