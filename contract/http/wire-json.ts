/**
 * Arguments go to the target as the caller gave them, as far as JSON can carry them, so the
 * server — not the adapter — judges them: a wrong type reaches the server's schema and comes
 * back as the same `invalid_argument` an in-process target would throw. Values JSON would
 * silently turn into something valid are made visibly invalid instead: NaN/±Infinity (JSON
 * `null`, which would mean "create" for a memory put) and bigints travel as a marker object,
 * which no schema slot for a string, number or null accepts (a string would pass as a valid id).
 */
import { ContractError } from '../errors.js';

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return { $nonFinite: String(value) };
  if (typeof value === 'bigint') return { $bigint: String(value) };
  return value;
}

export function toWireJson(body: unknown): string {
  try {
    return JSON.stringify(body, replacer) ?? 'null';
  } catch {
    // Cycles and the like: no JSON value exists, so no target could accept it.
    throw new ContractError('invalid_argument', 'the argument cannot be encoded as JSON');
  }
}

/** Thread-state payload bytes as base64; anything that is not bytes is sent so that the server refuses it. */
export function payloadToWire(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null) return payload;
  const p = payload as { bytes?: unknown };
  // Not bytes (a string that happens to be base64, say): sent as a value no schema accepts.
  if (!(p.bytes instanceof Uint8Array)) return { ...payload, bytes: { $notBytes: typeof p.bytes } };
  const b = p.bytes;
  return { ...payload, bytes: Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64') };
}
