/**
 * Pipeline step 6a: compare the expected revision with the live one. `null` expects no live
 * record; n expects live revision n. Runs inside the persist transaction, so exactly one of
 * several writers expecting the same revision can pass.
 */
import type { LiveRecord } from './stored-record.js';

export type RevisionCheck = { readonly ok: true } | { readonly ok: false; readonly currentRevision: number };

export function checkRevision(current: LiveRecord | null, expected: number | null): RevisionCheck {
  const currentRevision = current?.revision ?? 0;
  if (expected === null ? current === null : current !== null && current.revision === expected) return { ok: true };
  return { ok: false, currentRevision };
}
