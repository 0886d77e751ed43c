/**
 * The reference control plane's `stream.validate_and_encode` (its own defence, not a contract
 * requirement): what a worker emits reaches the client only if well-formed and bounded, numbered
 * in order, frozen; a throwing client callback does not break the run. From the Stryker runs
 * triage (family R6 in mutation/survivors.md): an in-process worker never emits a bad event.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../contract/runs.js';
import { EventStream } from '../../reference-impl/runs/control-plane/event-stream.js';
import type { WorkerEvent } from '../../reference-impl/runs/worker/worker-port.js';

const MAX_TEXT = 64 * 1024;

function through(events: unknown[], onEvent?: (e: RunEvent) => void) {
  const s = new EventStream(onEvent);
  for (const e of events) s.accept(e as WorkerEvent);
  return s;
}

describe('event stream (reference)', () => {
  it('numbers accepted events in order, freezes them and hands each to the callback', () => {
    const seen: RunEvent[] = [];
    const s = through(
      [
        { type: 'output', text: 'a' },
        { type: 'interrupt', interruptId: 'int_1', value: 'v' },
        { type: 'durable', revision: 1 },
        { type: 'error', code: 'uncertain_durability' },
      ],
      (e) => seen.push(e),
    );
    expect(s.events).toEqual([
      { seq: 1, type: 'output', text: 'a' },
      { seq: 2, type: 'interrupt', interruptId: 'int_1', value: 'v' },
      { seq: 3, type: 'durable', revision: 1 },
      { seq: 4, type: 'error', code: 'uncertain_durability' },
    ]);
    expect(seen).toEqual(s.events);
    expect(s.events.every((e) => Object.isFrozen(e))).toBe(true);
    expect(s.rejectedCount).toBe(0);
  });

  it('drops malformed or oversized events, counting them, without using up a sequence number', () => {
    const bad = [
      { type: 'output', text: 5 },
      { type: 'output', text: 'x'.repeat(MAX_TEXT + 1) },
      { type: 'interrupt', interruptId: 7, value: 'v' },
      { type: 'interrupt', interruptId: 'int_1', value: 7 },
      { type: 'interrupt', interruptId: 'int_1', value: 'x'.repeat(MAX_TEXT + 1) },
      { type: 'durable', revision: 0 },
      { type: 'durable', revision: -1 },
      { type: 'durable', revision: 1.5 },
      { type: 'durable', revision: '2' },
      { type: 'error', code: 5 },
      { type: 'error', code: 'Not_A_Code' },
      { type: 'error', code: 'code; secret=x' },
      { type: 'error', code: 'x secret' },
      { type: 'error', code: '' },
      { type: 'shell', text: 'rm' },
    ];
    const s = through([...bad, { type: 'output', text: 'ok' }]);
    expect(s.events).toEqual([{ seq: 1, type: 'output', text: 'ok' }]);
    expect(s.rejectedCount).toBe(bad.length);
  });

  it('accepts texts of exactly the bound', () => {
    const s = through([
      { type: 'output', text: 'x'.repeat(MAX_TEXT) },
      { type: 'interrupt', interruptId: 'int_1', value: 'x'.repeat(MAX_TEXT) },
    ]);
    expect(s.events).toHaveLength(2);
  });

  it('keeps at most 4096 events', () => {
    const s = through(Array.from({ length: 4100 }, () => ({ type: 'output', text: '' })));
    expect(s.events).toHaveLength(4096);
    expect(s.events.at(-1)!.seq).toBe(4096);
    expect(s.rejectedCount).toBe(4);
  });

  it('a throwing callback does not stop the stream; no callback is fine', () => {
    const s = through(
      [
        { type: 'output', text: 'a' },
        { type: 'output', text: 'b' },
      ],
      () => {
        throw new Error('client bug');
      },
    );
    expect(s.events).toHaveLength(2);
    expect(through([{ type: 'output', text: 'a' }]).events).toHaveLength(1);
  });
});
