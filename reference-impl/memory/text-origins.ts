/**
 * Step 3: where the parts of a memory came from. Text a reader never sees (HTML and markdown
 * comments, hidden elements) and text another system produced (a tool result pasted into a
 * memory) are where indirect injection lives (OWASP LLM01, AgentDojo-style tool-result
 * injection), so each such part is pulled out as its own text for the rules to read whole, and
 * its origin is recorded: rules treat an instruction there as worse, approval policy uses it.
 * Patterns are linear (bounded lazy spans, no nested quantifiers).
 */

export type TextOrigin = 'markup_comment' | 'hidden_html' | 'tool_result' | 'json_field';

export interface OriginSegment {
  readonly origin: TextOrigin;
  readonly text: string;
}

const SPAN = 4096;
const MAX_SEGMENTS = 16;
const MAX_SEGMENT_CHARS = 16 * 1024;
const MD_COMMENT = /\[(?:\/\/|comment|_)\]:[ \t]{0,8}(?:#|<>)[ \t]{0,8}[("']([^\n]{0,4096})[)"']/gi;
const OPEN_TAG = /<([a-z][a-z0-9_]{0,23})\b([^>]{0,1024})>/gi;
const HIDDEN_ATTR =
  /\bhidden\b|aria-hidden\s*=\s*["']?true|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?![.\d]*[1-9])|color\s*:\s*(?:white|#fff\b|#ffffff|transparent)/i;
const INERT = new Set(['template', 'noscript', 'script', 'style', 'object']);
const TOOL_ELEMENT = new Set(['tool_result', 'tool_output', 'function_result', 'tool', 'observation', 'search_result']);

/** Contents of elements that are hidden, inert or tool output (found tag by tag: no backtracking). */
function elementSegments(text: string, out: OriginSegment[]): void {
  const lower = text.toLowerCase();
  for (const m of text.matchAll(OPEN_TAG)) {
    const name = (m[1] ?? '').toLowerCase();
    const origin: TextOrigin | null = TOOL_ELEMENT.has(name)
      ? 'tool_result'
      : INERT.has(name) || HIDDEN_ATTR.test(m[2] ?? '')
        ? 'hidden_html'
        : null;
    if (origin === null) continue;
    const from = (m.index ?? 0) + m[0].length;
    const close = lower.indexOf(`</${name}`, from);
    out.push({ origin, text: text.slice(from, close < 0 ? from + SPAN : Math.min(close, from + SPAN)) });
  }
}
const TOOL_ROLE = /"role"\s*:\s*"(?:tool|function)"/i;
// A line that introduces another system's output: "Tool output (x):", "search_docs returned:",
// "Function response:", "Observation:", "[tool:x]", "Result of the x tool:".
const TOOL_LEAD =
  /(?:^|\n)\s*(?:\[tool[:\]][^\]\n]{0,64}\]?|(?:tool|function|plugin|api|search|browser|web)[\w .()-]{0,40}?(?:output|result|response|returned|says)\b|observation\s*:|result of [\w .-]{1,40}?(?:tool|call|search)|[a-z]+_[a-z_]+ (?:returned|responded|said))[^\n]{0,4096}/gi;

export function originSegments(text: string): OriginSegment[] {
  const out: OriginSegment[] = [];
  for (let at = text.indexOf('<!--'); at >= 0; at = text.indexOf('<!--', at + 4)) {
    const end = text.indexOf('-->', at + 4);
    out.push({
      origin: 'markup_comment',
      text: text.slice(at + 4, end < 0 ? at + 4 + SPAN : Math.min(end, at + 4 + SPAN)),
    });
  }
  for (const m of text.matchAll(MD_COMMENT)) out.push({ origin: 'markup_comment', text: m[1] ?? '' });
  elementSegments(text, out);
  for (const m of text.matchAll(TOOL_LEAD)) out.push({ origin: 'tool_result', text: m[0] });
  if (TOOL_ROLE.test(text)) out.push({ origin: 'tool_result', text });
  // Bounded: a flood of comment openers must not become thousands of texts to decode.
  let budget = MAX_SEGMENT_CHARS;
  return out
    .filter((s) => s.text.trim().length > 0)
    .slice(0, MAX_SEGMENTS)
    .map((s) => {
      const text = s.text.slice(0, Math.max(0, budget));
      budget -= text.length;
      return { ...s, text };
    })
    .filter((s) => s.text.length > 0);
}

/** The text as a reader sees it: tags removed (their hidden contents are read separately). */
export function withoutMarkup(text: string): string | null {
  if (!/<[a-z!/]/i.test(text)) return null;
  return text.replace(/<!--|-->|<\/?[a-z][a-z0-9_]{0,23}\b[^>]{0,1024}>/gi, ' ');
}
