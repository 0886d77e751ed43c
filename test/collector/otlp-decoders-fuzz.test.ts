/**
 * Bad input never escapes the decoders as anything but a 400: random bytes, and valid OTLP
 * bodies with bytes flipped, truncated or spliced, either decode or raise OtlpRequestError(400).
 */
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeOtlpBody, OtlpRequestError, type OtlpWireFormat } from '../../fixtures/collector/decode-otlp-request.js';
import { fcParams } from '../../fixtures/properties/fc-params.js';
import { recordSpans } from './recorded-spans.js';

let valid: Record<OtlpWireFormat, Uint8Array>;
beforeAll(async () => {
  const spans = await recordSpans();
  valid = {
    json: JsonTraceSerializer.serializeRequest(spans)!,
    protobuf: ProtobufTraceSerializer.serializeRequest(spans)!,
  };
});

function decodesOr400(format: OtlpWireFormat, body: Uint8Array): void {
  try {
    const spans = decodeOtlpBody(format, body);
    for (const s of spans) {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
  } catch (e) {
    expect(e).toBeInstanceOf(OtlpRequestError);
    expect((e as OtlpRequestError).status).toBe(400);
  }
}

const format = fc.constantFrom<OtlpWireFormat>('json', 'protobuf');

describe('OTLP decoders on bad input', () => {
  it('random bytes decode or are rejected with 400', () => {
    fc.assert(
      fc.property(format, fc.uint8Array({ maxLength: 512 }), (f, bytes) => decodesOr400(f, bytes)),
      fcParams(500),
    );
  });

  it('valid bodies with flipped, truncated or spliced bytes decode or are rejected with 400', () => {
    fc.assert(
      fc.property(
        format,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.nat(),
        fc.uint8Array({ maxLength: 16 }),
        (f, flips, cut, splice) => {
          const body = Uint8Array.from(valid[f]);
          for (const [at, b] of flips) body[at % body.length] = b;
          const end = cut % (body.length + 1);
          decodesOr400(f, Buffer.concat([body.subarray(0, end), splice, body.subarray(end)]));
          decodesOr400(f, body.subarray(0, end));
        },
      ),
      fcParams(300),
    );
  });

  it('deeply nested attribute values are rejected, not recursed into without bound', () => {
    let value = '{"stringValue":"x"}';
    for (let i = 0; i < 200; i++) value = `{"arrayValue":{"values":[${value}]}}`;
    const span = `{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"b7ad6b7169203331","name":"n","attributes":[{"key":"k","value":${value}}]}`;
    const body = Buffer.from(`{"resourceSpans":[{"scopeSpans":[{"spans":[${span}]}]}]}`);
    expect(() => decodeOtlpBody('json', body)).toThrow(OtlpRequestError);
  });
});
