/** A form-encoded value after bracket expansion: a string, a list or a nested object. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** A parsed form body: `a[b][0][c]=1` becomes `{ a: { b: [{ c: '1' }] } }`. */
export type FormObject = { [key: string]: FormValue };

// `line_items[0][price_data][currency]` -> ['line_items', '0', 'price_data', 'currency'].
function pathOf(key: string): string[] | undefined {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return undefined;
  const rest = [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
  return [match[1], ...rest];
}

function toArrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((k) => [k, toArrays(value[k])] as const);
  // An object whose keys are exactly 0..n-1 was an indexed list (the SDK's `arr[0]`, `arr[1]`).
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}

/**
 * Parses a form-encoded body (or query string) the way Stripe's API reads the official SDKs'
 * encoding: bracketed keys nest, indexed keys make lists. Keys that cannot nest are dropped.
 * @param text - `application/x-www-form-urlencoded` text
 * @returns the nested object
 */
export function parseForm(text: string): FormObject {
  const root: { [key: string]: FormValue } = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = pathOf(key);
    if (!path || path.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype')) continue;
    let node: { [key: string]: FormValue } = root;
    for (let i = 0; i < path.length - 1; i++) {
      const next = node[path[i]];
      if (typeof next !== 'object' || Array.isArray(next)) node[path[i]] = {};
      node = node[path[i]] as { [key: string]: FormValue };
    }
    // `expand[]=a&expand[]=b`: an empty bracket appends.
    const last = path[path.length - 1];
    if (last === '' && path.length > 1) {
      const siblings = Object.keys(node).length;
      node[String(siblings)] = value;
    } else {
      node[last] = value;
    }
  }
  return toArrays(root) as FormObject;
}
