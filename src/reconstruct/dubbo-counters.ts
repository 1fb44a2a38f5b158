/**
 * Dubbo's in-flight counters: every entry of `RpcStatus.METHOD_STATISTICS` (2.6 `com.alibaba`,
 * 2.7/3.x `org.apache`), with the `executes` (provider) or `actives` (consumer) limit found in the
 * service URL's parameters, method-specific before global (java-internals.md, 1.1 and 1.2).
 */
import { mapEntries } from '../heap/collections.js';
import type { HeapObject, HeapValue } from '../heap/heap-model.js';
import { hexId, numberOf, stringMap, textOf } from '../heap/heap-values.js';
import type { HeapView } from '../heap/heap-view.js';
import type { CounterModel } from '../model/model.js';
import { trimEndChar } from '../model/text-scan.js';

export type HeapCounter = Omit<CounterModel, 'threadsInside' | 'rejectionsLogged'>;

const PACKAGES = ['org.apache.dubbo', 'com.alibaba.dubbo'] as const;

export function dubboCounters(view: HeapView, input: string): HeapCounter[] {
  const out: HeapCounter[] = [];
  for (const pkg of PACKAGES) {
    const statusClass = `${pkg}.rpc.RpcStatus`;
    const methodStats = view.object(view.staticValue(statusClass, 'METHOD_STATISTICS') ?? null);
    if (methodStats === undefined) continue;
    const serviceStats = new Map<string, number>();
    for (const [k, v] of mapEntries(view, view.object(view.staticValue(statusClass, 'SERVICE_STATISTICS') ?? null)).items) {
      const identity = textOf(view, k);
      const active = numberOf(view, view.follow(view.object(v), 'active'));
      if (identity !== undefined && active !== undefined) serviceStats.set(identity, active);
    }
    const urls = new UrlLimits(view, pkg);
    for (const [identityKey, perMethod] of mapEntries(view, methodStats).items) {
      const identity = textOf(view, identityKey);
      if (identity === undefined) continue;
      for (const [methodKey, statusRef] of mapEntries(view, view.object(perMethod)).items) {
        const method = textOf(view, methodKey);
        const status = view.object(statusRef);
        if (method === undefined || status === undefined) continue;
        const active = numberOf(view, view.follow(status, 'active'));
        if (active === undefined) continue;
        const service = serviceOf(identity);
        const limit = urls.limitFor(identity, method);
        out.push({
          kind: limit?.key === 'actives' ? 'dubbo-actives' : 'dubbo-executes',
          name: `${service}#${method}`,
          service,
          method,
          identity,
          active,
          limit: limit?.value ?? null,
          limitSource: limit?.source ?? null,
          total: numberOf(view, view.follow(status, 'total')) ?? null,
          failed: numberOf(view, view.follow(status, 'failed')) ?? null,
          object: { input, id: hexId(status.id), className: statusClass },
          serviceActive: serviceStats.get(identity) ?? null,
        });
      }
    }
  }
  return out;
}

/** `dubbo://10.0.0.5:20880/com.foo.DemoService` -> `com.foo.DemoService`. */
function serviceOf(identity: string): string {
  const m = /^[a-z][\w+.-]*:\/\/[^/]*\/(.*)$/.exec(identity);
  return trimEndChar(m ? m[1]! : identity, '/');
}

interface Limit {
  readonly key: 'executes' | 'actives';
  readonly value: number;
  readonly source: string;
}

/** The service URLs in the heap, by identity string, and the limits their parameters set. */
class UrlLimits {
  private readonly byIdentity = new Map<string, HeapObject[]>();

  constructor(
    private readonly view: HeapView,
    pkg: string,
  ) {
    for (const url of view.instancesOf(`${pkg}.common.URL`)) {
      const identity = urlIdentity(view, url);
      if (identity === undefined) continue;
      const list = this.byIdentity.get(identity) ?? [];
      list.push(url);
      this.byIdentity.set(identity, list);
    }
  }

  limitFor(identity: string, method: string): Limit | undefined {
    const urls = this.byIdentity.get(identity) ?? [];
    for (const key of ['executes', 'actives'] as const) {
      for (const url of urls) {
        const found = this.lookup(url, method, key);
        if (found !== undefined && found.value > 0) return found;
      }
    }
    return undefined;
  }

  /** `<method>.<key>` first, then `<key>`, in every place a Dubbo version keeps parameters. */
  private lookup(url: HeapObject, method: string, key: 'executes' | 'actives'): Limit | undefined {
    const v = this.view;
    const params = stringMap(v, v.field(url, 'parameters') ?? undefined);
    const urlParam = v.follow(url, 'urlParam');
    const extra = stringMap(v, v.field(urlParam, 'EXTRA_PARAMS') ?? undefined);
    const methodParams = stringMap(v, v.field(url, 'methodParameters') ?? undefined); // 2.7.5+: {method -> {key -> value}}
    const inverted = stringMap(v, v.field(urlParam, 'METHOD_PARAMETERS') ?? undefined); // 3.x: {key -> {method -> value}}
    const candidates: Array<[HeapValue | undefined, string]> = [
      [params.get(`${method}.${key}`), `URL parameter ${method}.${key}`],
      [stringMap(v, methodParams.get(method) ?? undefined).get(key), `URL methodParameters ${method}.${key}`],
      [stringMap(v, inverted.get(key) ?? undefined).get(method), `URLParam METHOD_PARAMETERS ${method}.${key}`],
      [extra.get(`${method}.${key}`), `URLParam ${method}.${key}`],
      [params.get(key), `URL parameter ${key}`],
      [extra.get(key), `URLParam ${key}`],
    ];
    for (const [value, source] of candidates) {
      const n = Number(textOf(v, value ?? undefined));
      if (value !== undefined && value !== null && Number.isFinite(n)) return { key, value: n, source };
    }
    return undefined;
  }
}

/** `protocol://[user[:password]@]host:port/path`, as `URL.toIdentityString()` builds it (2.x fields, or 3.x `urlAddress`). */
function urlIdentity(view: HeapView, url: HeapObject): string | undefined {
  const holder = view.field(url, 'host') !== undefined ? url : view.follow(url, 'urlAddress');
  if (holder === undefined) return undefined;
  const text = (name: string) => textOf(view, view.field(holder, name) ?? undefined);
  const protocol = text('protocol') ?? textOf(view, view.field(url, 'protocol') ?? undefined);
  const host = text('host');
  if (protocol === undefined || host === undefined) return undefined;
  const port = numberOf(view, view.field(holder, 'port') ?? undefined) ?? 0;
  const user = text('username');
  const password = text('password');
  const path = text('path') ?? textOf(view, view.field(url, 'path') ?? undefined) ?? '';
  const auth = user !== undefined && user.length > 0 ? `${user}${password ? `:${password}` : ''}@` : '';
  return `${protocol}://${auth}${host}${port > 0 ? `:${port}` : ''}/${path}`;
}
