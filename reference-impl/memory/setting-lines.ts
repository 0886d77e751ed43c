/**
 * A note's settings as `path.to.key: value` lines, lower case ("grant.tools: shell, http_post",
 * "approval: waived"), whatever format wrote them: a JSON note's leaves, and the YAML or TOML a
 * text note (or a JSON string field) holds, whose nested keys and sections are joined into the
 * same paths — so one rule reads a grant in any of the three (quarantine-policy.ts). Never
 * persisted, never logged.
 */

/** Lines kept, how deep a JSON path is followed, and how many text lines are read. */
const MAX_SETTINGS = 200;
const MAX_SETTING_DEPTH = 8;
const MAX_TEXT_LINES = 400;

/** A JSON value's leaves as `path: value` lines (arrays of scalars joined), as YAML would write them. */
export function jsonSettingLines(value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string, depth: number): void => {
    if (out.length >= MAX_SETTINGS || depth > MAX_SETTING_DEPTH) return;
    if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) {
      out.push(`${path}: ${v.map(String).join(', ')}`);
    } else if (Array.isArray(v)) for (const x of v) walk(x, path, depth + 1);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k, depth + 1);
    } else out.push(`${path}: ${String(v)}`);
  };
  walk(value, '', 0);
  return out.map((l) => l.toLowerCase());
}

// `key: value` / `key = value` (YAML, TOML, .env-like), a key being one token, optionally quoted
// or a list item's first key; a colon that starts `://` is a URL, not a setting.
const KEY_LINE = /^([ \t]*)(?:-[ \t]+)?["']?([\p{L}\p{N}_.-]{1,64})["']?[ \t]*(?::(?!\/\/)|=)[ \t]*(.*)$/u;
// A TOML table header: `[permissions]`, `[[grants]]`, `[agent."network"]`.
const TOML_TABLE = /^[ \t]*\[\[?[ \t]*([\p{L}\p{N}_."' -]{1,120}?)[ \t]*\]\]?[ \t]*(?:#.*)?$/u;
const LIST_ITEM = /^([ \t]*)-[ \t]+(.+)$/;
// A YAML block scalar's marker (`|`, `>-`) is not a value.
const BLOCK_MARKER = /^[|>][+-]?$/;

/** The YAML or TOML settings a text writes, as `path: value` lines (see the file comment). */
export function textSettingLines(text: string): string[] {
  const out: string[] = [];
  let table: string[] = [];
  let open: { indent: number; key: string }[] = [];
  const path = (key?: string): string => [...table, ...open.map((o) => o.key), ...(key ? [key] : [])].join('.');
  const lines = text.split(/\r?\n/, MAX_TEXT_LINES);
  for (const line of lines) {
    if (out.length >= MAX_SETTINGS) break;
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    const t = TOML_TABLE.exec(line);
    if (t) {
      table = (t[1] ?? '')
        .replace(/["'\s]/g, '')
        .split('.')
        .filter(Boolean);
      open = [];
      continue;
    }
    const k = KEY_LINE.exec(line);
    if (k) {
      const [, lead = '', key = '', rest = ''] = k;
      const indent = lead.length;
      open = open.filter((o) => o.indent < indent);
      const value = rest.replace(/\s+#.*$/, '').trim();
      if (value === '' || BLOCK_MARKER.test(value)) open.push({ indent, key });
      else out.push(`${path(key)}: ${value}`);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    const innermost = open[open.length - 1];
    if (item && innermost && (item[1] ?? '').length >= innermost.indent) {
      out.push(`${path()}: ${(item[2] ?? '').trim()}`);
      continue;
    }
    // Prose at the margin ends any structure; indented prose is a block scalar's text.
    if (!/^[ \t]/.test(line)) {
      table = [];
      open = [];
    }
  }
  return out.map((l) => l.toLowerCase());
}
