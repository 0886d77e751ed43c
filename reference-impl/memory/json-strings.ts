/**
 * Every string inside a JSON value, object keys included, in document order — what scanning
 * and redaction look at for application/json content (escapes already decoded). `rebuildJson`
 * puts replacement strings back in the same order.
 */
export function jsonStrings(value: unknown, includeKeys = true): string[] {
  const out: string[] = [];
  collect(value, out, includeKeys);
  return out;
}

function collect(value: unknown, into: string[], keys: boolean): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const v of value) collect(v, into, keys);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (keys) into.push(k);
      collect(v, into, keys);
    }
  }
}

export function rebuildJson(value: unknown, replacements: readonly string[]): unknown {
  let i = 0;
  const next = (): string => replacements[i++] ?? '';
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return next();
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const child of Object.values(v)) {
        const key = next();
        out[key] = walk(child);
      }
      return out;
    }
    return v;
  };
  return walk(value);
}
