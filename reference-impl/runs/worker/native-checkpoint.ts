/**
 * The `scripted/v1` native state: what the scripted harness checkpoints. Opaque to everyone
 * else (the store sees bytes). Bounded: the transcript keeps the most recent entries, each
 * truncated, so a long thread cannot grow a checkpoint without limit.
 */
import type { RunStep } from '../../../contract/runs.js';
import type { DurableStateHead, OpaqueStatePayload } from '../../../contract/state.js';

export const SCRIPTED_CODEC = 'scripted/v1';

const MAX_TRANSCRIPT = 64;
const MAX_ENTRY_CHARS = 4096;

export type TranscriptKind = 'prompt' | 'completion' | 'tool_result' | 'memory' | 'output' | 'answer' | 'internal';

export interface ScriptedState {
  readonly v: 1;
  /** Completed harness turns (runs) on this thread. */
  turns: number;
  transcript: { kind: TranscriptKind; text: string }[];
  /** Steps left when the run was interrupted; resumed after the interrupt is answered. */
  pending: RunStep[];
}

export function initialState(): ScriptedState {
  return { v: 1, turns: 0, transcript: [], pending: [] };
}

export function record(state: ScriptedState, kind: TranscriptKind, text: string): void {
  state.transcript.push({ kind, text: text.slice(0, MAX_ENTRY_CHARS) });
  if (state.transcript.length > MAX_TRANSCRIPT) state.transcript.splice(0, state.transcript.length - MAX_TRANSCRIPT);
}

export function encodeState(state: ScriptedState): OpaqueStatePayload {
  return { codec: SCRIPTED_CODEC, bytes: new TextEncoder().encode(JSON.stringify(state)) };
}

/** The harness state a durable head holds; a head of another codec or shape starts fresh. */
export function decodeState(head: DurableStateHead | null): ScriptedState {
  if (!head || head.payload.codec !== SCRIPTED_CODEC) return initialState();
  try {
    const s = JSON.parse(new TextDecoder().decode(head.payload.bytes)) as Partial<ScriptedState>;
    if (s.v !== 1 || !Array.isArray(s.transcript) || !Array.isArray(s.pending) || typeof s.turns !== 'number') {
      return initialState();
    }
    return { v: 1, turns: s.turns, transcript: s.transcript, pending: s.pending };
  } catch {
    return initialState();
  }
}
