/** Every value LangGraph wrote into a durable head's `langgraph-checkpoint/v1` log (checkpoints and pending writes), as text. */
import type { DurableStateHead } from '../../contract/state.js';
import { decodeLog, fromB64 } from '../../reference-impl/runs/worker/langgraph/checkpoint-log.js';

export function langgraphHeadText(h: DurableStateHead | null): string {
  if (!h) return '';
  const log = decodeLog(h.payload.bytes, h.bindingId, h.epoch);
  const text = (b64: string) => new TextDecoder().decode(fromB64(b64));
  return [...log.checkpoints.map((c) => text(c[4])), ...log.writes.map((w) => text(w[6]))].join('\n');
}
