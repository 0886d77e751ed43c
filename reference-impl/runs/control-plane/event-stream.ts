/**
 * `stream.validate_and_encode`: what the worker emits becomes the client's event stream only
 * after validation (known type, bounded fields) and encoding (sequence number, frozen copy).
 * A client callback that throws cannot break the run; the stream is bounded.
 */
import type { RunEvent } from '../../../contract/runs.js';
import type { WorkerEvent } from '../worker/worker-port.js';

const MAX_EVENTS = 4096;
const MAX_TEXT = 64 * 1024;

export class EventStream {
  private readonly encoded: RunEvent[] = [];
  private rejected = 0;

  constructor(private readonly onEvent: ((e: RunEvent) => void) | undefined) {}

  get events(): readonly RunEvent[] {
    return this.encoded;
  }

  get rejectedCount(): number {
    return this.rejected;
  }

  accept(e: WorkerEvent): void {
    const ev = this.encode(e);
    if (!ev) {
      this.rejected++;
      return;
    }
    this.encoded.push(ev);
    try {
      this.onEvent?.(ev);
    } catch {
      // The client's callback failing is the client's problem; the run goes on.
    }
  }

  private encode(e: WorkerEvent): RunEvent | null {
    if (this.encoded.length >= MAX_EVENTS) return null;
    const seq = this.encoded.length + 1;
    switch (e.type) {
      case 'output':
        return typeof e.text === 'string' && e.text.length <= MAX_TEXT
          ? Object.freeze({ seq, type: 'output', text: e.text })
          : null;
      case 'interrupt':
        return typeof e.interruptId === 'string' && typeof e.value === 'string' && e.value.length <= MAX_TEXT
          ? Object.freeze({ seq, type: 'interrupt', interruptId: e.interruptId, value: e.value })
          : null;
      case 'durable':
        return Number.isSafeInteger(e.revision) && e.revision > 0
          ? Object.freeze({ seq, type: 'durable', revision: e.revision })
          : null;
      case 'error':
        return typeof e.code === 'string' && /^[a-z_]{1,64}$/.test(e.code)
          ? Object.freeze({ seq, type: 'error', code: e.code })
          : null;
      default:
        return null;
    }
  }
}
