/**
 * Sampling that no caller can switch off. The SDK default (parent-based) would let an incoming
 * `…-00` traceparent turn recording off; here only two things decide: our own ratio at the
 * root of our part of the trace (which includes a trace continued from a trusted caller), and
 * our own earlier decision for spans below it — a local parent or the control plane's carrier.
 */
import { type Context, isSpanContextValid, trace } from '@opentelemetry/api';
import {
  type Sampler,
  SamplingDecision,
  type SamplingResult,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { isInternalContext } from './internal-carrier.js';

export class RecordingSampler implements Sampler {
  private readonly root: TraceIdRatioBasedSampler;

  constructor(private readonly ratio: number) {
    this.root = new TraceIdRatioBasedSampler(ratio);
  }

  shouldSample(ctx: Context, traceId: string): SamplingResult {
    const parent = trace.getSpanContext(ctx);
    const ours = parent && isSpanContextValid(parent) && (!parent.isRemote || isInternalContext(ctx));
    if (parent && ours) {
      return { decision: parent.traceFlags & 1 ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
    }
    return this.root.shouldSample(ctx, traceId);
  }

  toString(): string {
    return `RecordingSampler{ratio=${this.ratio}}`;
  }
}
