/**
 * The export boundary. Whatever a span picked up on its way (a stray attribute, an exception
 * event, a status message, a foreign tracestate, a resource label from the environment), the
 * inner exporter only ever sees a filtered copy: contract span names, allow-listed attributes
 * with safe values, allow-listed events and resource keys, links without trace state, status
 * codes without messages. Spans with a name outside the contract vocabulary (and the reference's
 * own client spans of trusted internal calls) are not exported.
 */
import type { Link, SpanContext } from '@opentelemetry/api';
import { isSpanContextValid } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { type Resource, resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { SPAN } from '../../contract/tracing.js';
import { filterAttributes, filterResourceAttributes, isSafeAttributeValue } from './attribute-allow-list.js';
import { CLIENT_SPAN_NAMES } from './span-scope.js';

const SPAN_NAMES = new Set<string>([...Object.values(SPAN), ...CLIENT_SPAN_NAMES]);
/** The only event names the reference writes (markers on the commit protocol). */
export const EXPORTED_EVENT_NAMES = ['smtc.durable', 'smtc.uncertain_durability'] as const;
const EVENT_NAMES = new Set<string>(EXPORTED_EVENT_NAMES);
const MAX_LINKS = 8;
const MAX_EVENTS = 16;

export class ScrubbingExporter implements SpanExporter {
  private readonly resources = new WeakMap<Resource, Resource>();

  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    const copies: ReadableSpan[] = [];
    for (const s of spans) {
      if (SPAN_NAMES.has(s.name)) copies.push(this.scrub(s));
    }
    if (copies.length === 0) {
      resultCallback({ code: ExportResultCode.SUCCESS });
      return;
    }
    this.inner.export(copies, resultCallback);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }

  /** A filtered copy; the original span object is never modified. */
  scrub(s: ReadableSpan): ReadableSpan {
    const ctx = stripState(s.spanContext());
    const links = s.links
      .filter((l) => isSpanContextValid(l.context))
      .slice(0, MAX_LINKS)
      .map(scrubLink);
    const events = s.events
      .filter((e) => EVENT_NAMES.has(e.name))
      .slice(0, MAX_EVENTS)
      .map(scrubEvent);
    const scopeName = s.instrumentationScope.name;
    const scopeVersion = s.instrumentationScope.version;
    return {
      name: s.name,
      kind: s.kind,
      spanContext: () => ctx,
      parentSpanContext: s.parentSpanContext ? stripState(s.parentSpanContext) : undefined,
      startTime: s.startTime,
      endTime: s.endTime,
      duration: s.duration,
      ended: s.ended,
      status: { code: s.status.code },
      attributes: filterAttributes(s.attributes),
      links,
      events,
      resource: this.scrubResource(s.resource),
      instrumentationScope: {
        name: isSafeAttributeValue(scopeName) ? scopeName : 'smtc',
        ...(isSafeAttributeValue(scopeVersion) ? { version: scopeVersion } : {}),
      },
      droppedAttributesCount: s.droppedAttributesCount,
      droppedEventsCount: s.droppedEventsCount,
      droppedLinksCount: s.droppedLinksCount,
    };
  }

  private scrubResource(r: Resource): Resource {
    let out = this.resources.get(r);
    if (!out) {
      out = resourceFromAttributes(filterResourceAttributes(r.attributes));
      this.resources.set(r, out);
    }
    return out;
  }
}

/** Trace state is vendor data from whoever called us; it is never exported. */
function stripState(c: SpanContext): SpanContext {
  return { traceId: c.traceId, spanId: c.spanId, traceFlags: c.traceFlags, isRemote: c.isRemote };
}

function scrubLink(l: Link): Link {
  return { context: stripState(l.context), attributes: filterAttributes(l.attributes) };
}

function scrubEvent(e: TimedEvent): TimedEvent {
  return { name: e.name, time: e.time, attributes: filterAttributes(e.attributes), droppedAttributesCount: 0 };
}
