/**
 * A depth bound on request JSON, checked on the raw text before anything parses or validates
 * it: a recursive schema (run requests nest subagents) or any recursive walk would otherwise
 * overflow the stack on a deep enough body and answer 500. No protocol body comes near the
 * bound; a deeper one is `invalid_argument`.
 */
import { ContractError } from '../../contract/errors.js';

export const MAX_JSON_DEPTH = 64;

/** Nesting depth of arrays/objects in JSON text (brackets inside strings do not count). */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function assertJsonDepth(text: string, max = MAX_JSON_DEPTH): void {
  if (jsonDepthExceeds(text, max)) throw new ContractError('invalid_argument', 'the request nests too deeply');
}
