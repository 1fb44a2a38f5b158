/**
 * The classes defined by several class loaders that an extract's memory summary carries, taken only
 * when well formed (the file is input: the renderers must not get wrong types): a class whose fields
 * are not is dropped, and so are its loaders' paths when a step is not.
 */
import type { ClassLoaderSummary, DefiningLoader, LoaderHolder, LoaderHolderGroup, RedefinedClass } from '../../model/class-loaders.js';
import type { PathStep, RetainedObject } from '../../model/memory.js';

type Value = unknown;
type Obj = Record<string, Value>;

const isObj = (x: Value): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);
const isNum = (x: Value): x is number => typeof x === 'number' && Number.isFinite(x);
const isStr = (x: Value): x is string => typeof x === 'string';
const HOLDER_KINDS = new Set(['static', 'thread-local', 'thread-stack', 'gc-root']);

function retained(x: Value): RetainedObject | undefined {
  if (!isObj(x) || !isStr(x['id']) || !isStr(x['className']) || !isNum(x['shallow']) || !isNum(x['retained']) || !isNum(x['index'])) return undefined;
  return {
    index: x['index'],
    id: x['id'],
    className: x['className'],
    shallow: x['shallow'],
    retained: x['retained'],
    ...(isStr(x['describes']) ? { describes: x['describes'] } : {}),
    ...(isStr(x['threadName']) ? { threadName: x['threadName'] } : {}),
  };
}

function holder(x: Value): LoaderHolder | null | undefined {
  if (x === null) return null;
  if (!isObj(x) || !isStr(x['kind']) || !HOLDER_KINDS.has(x['kind'])) return undefined;
  const o = x['holder'] === undefined ? undefined : retained(x['holder']);
  return {
    kind: x['kind'] as LoaderHolder['kind'],
    ...(isStr(x['field']) ? { field: x['field'] } : {}),
    ...(o !== undefined ? { holder: o } : {}),
    ...(isStr(x['rootKind']) ? { rootKind: x['rootKind'] } : {}),
  };
}

function path(x: Value): PathStep[] | undefined {
  if (!Array.isArray(x)) return undefined;
  const steps: PathStep[] = [];
  for (const st of x) {
    const o = isObj(st) ? retained(st['object']) : undefined;
    if (o === undefined) return undefined;
    const s = st as Obj;
    steps.push({ object: o, ...(isStr(s['via']) ? { via: s['via'] } : {}), ...(isStr(s['rootKind']) ? { rootKind: s['rootKind'] } : {}) });
  }
  return steps;
}

function loader(x: Value): DefiningLoader | undefined {
  const o = isObj(x) ? retained(x['loader']) : undefined;
  if (o === undefined) return undefined;
  const l = x as Obj;
  const keptBy = l['keptBy'] === undefined ? undefined : holder(l['keptBy']);
  const steps = path(l['path']);
  return {
    loader: o,
    ...(isStr(l['name']) ? { name: l['name'] } : {}),
    ...(keptBy !== undefined && keptBy !== null ? { keptBy } : {}),
    ...(steps !== undefined ? { path: steps } : {}),
  };
}

function redefined(x: Value): RedefinedClass | undefined {
  if (!isObj(x) || !isStr(x['className'])) return undefined;
  const nums = ['sameLoadersClasses', 'loaderCount', 'retained', 'classes', 'classesRetained'] as const;
  if (!nums.every((k) => isNum(x[k])) || !Array.isArray(x['loaderClasses']) || !Array.isArray(x['loaders']) || !Array.isArray(x['keptBy'])) return undefined;
  const groups: LoaderHolderGroup[] = [];
  for (const g of x['keptBy']) {
    const h = isObj(g) ? holder(g['holder']) : undefined;
    if (h === undefined || !isNum((g as Obj)['loaders']) || !isNum((g as Obj)['retained'])) continue;
    groups.push({ holder: h, loaders: (g as Obj)['loaders'] as number, retained: (g as Obj)['retained'] as number });
  }
  return {
    className: x['className'],
    sameLoadersClasses: x['sameLoadersClasses'] as number,
    loaderCount: x['loaderCount'] as number,
    loaderClasses: x['loaderClasses'].filter(isStr),
    retained: x['retained'] as number,
    classes: x['classes'] as number,
    classesRetained: x['classesRetained'] as number,
    loaders: x['loaders'].map(loader).filter((l): l is DefiningLoader => l !== undefined),
    keptBy: groups,
  };
}

/** The section when it is well formed enough to draw, else undefined (left out). */
export function classLoadersFrom(v: Value): ClassLoaderSummary | undefined {
  if (!isObj(v) || !Array.isArray(v['classes'])) return undefined;
  return {
    classes: v['classes'].map(redefined).filter((c): c is RedefinedClass => c !== undefined),
    moreClasses: isNum(v['moreClasses']) ? v['moreClasses'] : 0,
  };
}
