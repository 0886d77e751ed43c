/**
 * The pod-local cache's file format: one JSON file per binding in a worker slot's directory,
 * holding the last durable head that worker saw. It is a cache only — restore never reads it
 * (contract: "Pod-local state is a cache and is never selected during restore"); the control
 * plane can poison it to prove that. Bounded: heads larger than the cap are not cached.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DurableStateHead } from '../../../contract/state.js';

const MAX_CACHED_BYTES = 4 * 1024 * 1024;

export function podCacheDir(slotDir: string): string {
  return path.join(slotDir, 'pod-cache');
}

function fileOf(slotDir: string, bindingId: string): string {
  return path.join(podCacheDir(slotDir), `${createHash('sha256').update(bindingId).digest('hex')}.json`);
}

export function writeCachedHead(slotDir: string, head: DurableStateHead): void {
  if (head.payload.bytes.length > MAX_CACHED_BYTES) return;
  const file = fileOf(slotDir, head.bindingId);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const body = JSON.stringify({
    v: 1,
    head: {
      ...head,
      payload: { codec: head.payload.codec, bytes: Buffer.from(head.payload.bytes).toString('base64') },
    },
  });
  // Write-then-rename: a worker killed mid-write leaves the old file, never half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, body, { mode: 0o600 });
  renameSync(tmp, file);
}

export function readCachedHead(slotDir: string, bindingId: string): DurableStateHead | null {
  try {
    const raw = JSON.parse(readFileSync(fileOf(slotDir, bindingId), 'utf8')) as {
      v?: unknown;
      head?: DurableStateHead & { payload: { codec: string; bytes: string } };
    };
    if (raw.v !== 1 || !raw.head || typeof raw.head.payload?.bytes !== 'string') return null;
    return {
      ...raw.head,
      payload: { codec: raw.head.payload.codec, bytes: new Uint8Array(Buffer.from(raw.head.payload.bytes, 'base64')) },
    };
  } catch {
    return null;
  }
}

/**
 * Poison: keep whatever revision the slot cached (so a cache-restoring worker would pass the
 * compare-and-set) but replace the payload with a scripted/v1 state that carries `marker`.
 */
export function poisonCachedHead(slotDir: string, bindingId: string, marker: string): void {
  const cached = readCachedHead(slotDir, bindingId);
  const state = { v: 1, turns: 999, transcript: [{ kind: 'output', text: marker }], pending: [] };
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  const head: DurableStateHead = {
    bindingId,
    epoch: cached?.epoch ?? 1,
    revision: cached?.revision ?? 0,
    state: cached?.state ?? {
      stateId: 'poisoned',
      bindingId,
      epoch: 1,
      codec: 'scripted/v1',
      idempotencyKey: 'poisoned',
      contentHash: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
    },
    payload: { codec: 'scripted/v1', bytes },
    runId: cached?.runId ?? 'poisoned',
    runState: 'completed',
    interrupt: null,
    committedAt: cached?.committedAt ?? new Date(0).toISOString(),
  };
  writeCachedHead(slotDir, head);
}
