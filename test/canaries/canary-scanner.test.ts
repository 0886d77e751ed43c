import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Core, ENCODINGS, type Encoding, encode } from '../../canaries/canary-encodings.js';
import { CanaryKit } from '../../canaries/canary-kit.js';
import { scanSinks } from '../../canaries/canary-scanner.js';
import { FORBIDDEN_CATEGORIES } from '../../canaries/forbidden-categories.js';
import type { Sink } from '../../canaries/sink.js';
import { fcParams } from '../../fixtures/properties/fc-params.js';

const sinkOf = (...items: (string | Buffer)[]): Sink => ({
  name: 'test.sink',
  description: 'unit test bytes',
  items: items.map((b) => ({ bytes: typeof b === 'string' ? Buffer.from(b) : b })),
});

/** Noise that can't contain a marker: no 'cnry' and no long base32 runs. */
const noise = fc.string({
  unit: fc.constantFrom('{', '}', '"', ':', ',', ' ', 'x', '0', '\n', 'é', 'A'),
  maxLength: 60,
});

describe('canary scanner', () => {
  it('base64Core of a string is found inside the base64 of any text containing it, at any alignment', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (pre, post) => {
        const m = 'cnryabcdefghijklmnop';
        const enc = Buffer.from(pre + m + post).toString('base64');
        const off = (Buffer.byteLength(pre) % 3) as 0 | 1 | 2;
        expect(enc).toContain(base64Core(m, off, false));
      }),
      fcParams(200),
    );
  });

  it('finds every category in every encoding, whole or marker-only, at the exact byte offset', () => {
    const kit = new CanaryKit();
    const canaries = Object.values(kit.mintAll());
    fc.assert(
      fc.property(
        fc.constantFrom(...canaries),
        fc.constantFrom(...ENCODINGS),
        fc.boolean(),
        noise,
        noise,
        (canary, encoding: Encoding, markerOnly, pre, post) => {
          const planted = encode(encoding, markerOnly ? canary.marker : canary.value);
          const r = scanSinks(canaries, [sinkOf(pre + planted + post)]);
          const mine = r.hits.filter((h) => h.canaryId === canary.id);
          expect(mine.length).toBeGreaterThanOrEqual(1);
          expect(r.hits.every((h) => h.canaryId === canary.id)).toBe(true);
          const start = Buffer.byteLength(pre);
          const end = start + Buffer.byteLength(planted);
          for (const h of mine) {
            expect(h.byteOffset).not.toBeNull();
            expect(h.byteOffset!).toBeGreaterThanOrEqual(start);
            expect(h.byteOffset! + h.length).toBeLessThanOrEqual(end);
          }
        },
      ),
      fcParams(300),
    );
  });

  it('finds base64 of a longer text that embeds the canary (marker at any alignment)', () => {
    const kit = new CanaryKit();
    const c = kit.mint('api_key');
    for (const prefix of ['', 'a', 'ab', 'Authorization: ']) {
      const b64 = Buffer.from(`${prefix}${c.marker}!`).toString('base64');
      const r = scanSinks([c], [sinkOf(`{"v":"${b64}"}`)]);
      expect(r.hits).toHaveLength(1);
      expect(r.hits[0]).toMatchObject({ encoding: 'base64', subject: 'marker' });
    }
  });

  it('reports nothing for clean bytes, including other kits’ canaries and the marker prefix alone', () => {
    const kit = new CanaryKit();
    const mine = Object.values(kit.mintAll());
    const other = Object.values(new CanaryKit().mintAll());
    const bytes = other.map((c) => `${c.value}|${encode('base64', c.value)}|cnry`).join('\n');
    const r = scanSinks(mine, [sinkOf(bytes)]);
    expect(r.hits).toEqual([]);
    expect(r.sinks).toEqual([
      { name: 'test.sink', description: 'unit test bytes', requests: 1, bytes: Buffer.byteLength(bytes), spans: 0 },
    ]);
  });

  it('collapses overlapping forms to one hit and reports separate occurrences separately', () => {
    const c = new CanaryKit().mint('prompt');
    const body = `{"a":"${encode('json-escaped', c.value)}","b":"${c.marker}"}`;
    const r = scanSinks([c], [sinkOf(body)]);
    expect(r.hits.map((h) => [h.encoding, h.subject])).toEqual([
      ['json-escaped', 'value'],
      ['raw', 'marker'],
    ]);
    expect(r.hits[1]!.byteOffset).toBe(body.indexOf(c.marker, body.indexOf('"b"')));
  });

  it('finds the capitalised person name only through case folding', () => {
    const c = new CanaryKit().mint('person_name');
    const r = scanSinks([c], [sinkOf(`name=${c.value.split(' ')[1]}`)]);
    expect(r.hits).toHaveLength(1);
    expect(r.hits[0]).toMatchObject({ encoding: 'case-folded', subject: 'marker' });
  });

  it('locates a hit by span name and attribute key when the item has decoded fields', () => {
    const c = new CanaryKit().mint('tool_result');
    const sink: Sink = {
      name: 'collector.requests',
      description: 'x',
      items: [
        { bytes: Buffer.from('clean'), spans: 1, fields: [] },
        {
          bytes: Buffer.from(`....${c.marker}....`),
          spans: 2,
          fields: [
            { path: 'span[0].name', spanName: 'tool.invoke', key: null, value: 'tool.invoke' },
            { path: 'span[0].attributes', spanName: 'tool.invoke', key: 'tool.output', value: `x${c.marker}y` },
          ],
        },
      ],
    };
    const r = scanSinks([c], [sink]);
    expect(r.hits).toEqual([
      expect.objectContaining({
        sink: 'collector.requests',
        itemIndex: 1,
        byteOffset: 4,
        spanName: 'tool.invoke',
        attributeKey: 'tool.output',
        fieldPath: 'span[0].attributes',
      }),
    ]);
    expect(r.sinks[0]).toMatchObject({ requests: 2, spans: 3 });
  });

  it('reports a canary found only in decoded fields (an escape form the bytes do not show) with no offset', () => {
    const c = new CanaryKit().mint('email');
    const escaped = [...c.value].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const r = scanSinks(
      [c],
      [
        {
          name: 's',
          description: 'd',
          items: [
            { bytes: Buffer.from(`"${escaped}"`), fields: [{ path: 'p', spanName: 'n', key: 'k', value: c.value }] },
          ],
        },
      ],
    );
    expect(r.hits).toEqual([expect.objectContaining({ byteOffset: null, attributeKey: 'k', encoding: 'raw' })]);
  });

  it('covers every forbidden category', () => {
    expect(FORBIDDEN_CATEGORIES).toHaveLength(19);
  });
});
