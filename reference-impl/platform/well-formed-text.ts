// A JS string is "invalid UTF-8" exactly when it holds a lone surrogate: SQLite's UTF-8 text,
// BSON and JSON over the wire would each store or decode it differently (often as U+FFFD).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string encodes to UTF-8 and back unchanged. */
export function isWellFormedText(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}
