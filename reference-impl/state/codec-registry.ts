/**
 * Native codecs the reference knows (adapter id + version). Payloads are opaque; the registry
 * only decides which codec ids a binding may be opened with and a write may name.
 */
import type { CodecId } from '../../contract/state.js';

export const REGISTERED_CODECS: readonly CodecId[] = ['scripted/v1', 'deepagents/v1', 'langgraph-checkpoint/v1'];

export function isRegisteredCodec(codec: string): boolean {
  return REGISTERED_CODECS.includes(codec);
}
