import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { defaultCompletion } from '../../fixtures/stubs/provider-stub.js';
import { defaultToolResult } from '../../fixtures/stubs/tool-stub.js';
import { useStubs } from '../../fixtures/stubs/use-stubs.js';

const s = useStubs();

async function post(url: string, body: unknown, headers: Record<string, string | string[]> = {}) {
  const r = await request(url, { method: 'POST', body: JSON.stringify(body), headers });
  return { status: r.statusCode, body: (await r.body.json()) as Record<string, unknown> };
}

describe('HTTP stubs', () => {
  it('provider answers deterministically and records headers, duplicates included', async () => {
    s().resetAll();
    const r = await post(`${s().provider.url}/v1/complete`, { model: 'm', prompt: 'hi' }, { 'x-a': ['1', '2'] });
    expect(r).toEqual({ status: 200, body: { text: defaultCompletion('hi') } });
    const [call] = s().provider.completions();
    expect(call?.headers['x-a']).toBe('1, 2');
    expect(call?.rawHeaders.filter((h) => h.toLowerCase() === 'x-a')).toHaveLength(2);
    expect(JSON.parse(call!.body)).toEqual({ model: 'm', prompt: 'hi' });
  });

  it('provider can be told what to return until reset', async () => {
    s().provider.respondWith(() => ({ text: 'fixed', stderr: 'diag', status: 200 }));
    expect((await post(`${s().provider.url}/v1/complete`, { prompt: 'x' })).body).toEqual({
      text: 'fixed',
      stderr: 'diag',
    });
    s().provider.respondWith(() => ({ status: 503 }));
    expect((await post(`${s().provider.url}/v1/complete`, { prompt: 'x' })).status).toBe(503);
    s().provider.reset();
    expect(s().provider.calls()).toHaveLength(0);
    expect((await post(`${s().provider.url}/v1/complete`, { prompt: 'x' })).body.text).toBe(defaultCompletion('x'));
  });

  it('tool and trusted service answer and record', async () => {
    s().resetAll();
    expect((await post(`${s().tool.url}/v1/tools/search`, { args: 'q' })).body).toEqual({
      result: defaultToolResult('search', 'q'),
    });
    expect((await post(`${s().trusted.url}/v1/internal`, { operation: 'x' }, { traceparent: 'tp' })).body).toEqual({
      ok: true,
    });
    expect(s().tool.calls()[0]?.path).toBe('/v1/tools/search');
    expect(s().trusted.calls()[0]?.headers.traceparent).toBe('tp');
    expect((await post(`${s().tool.url}/other`, {})).status).toBe(404);
  });

  it('a stub told to fail answers its status with exact bytes (a non-JSON body included) and still records the call', async () => {
    s().resetAll();
    s().provider.respondWith(() => ({ status: 500, raw: 'Traceback: boom', contentType: 'text/plain' }));
    s().tool.respondWith(() => ({ raw: 'cnrynotjson' }));
    try {
      const p = await request(`${s().provider.url}/v1/complete`, {
        method: 'POST',
        body: JSON.stringify({ prompt: 'x' }),
      });
      expect([p.statusCode, p.headers['content-type'], await p.body.text()]).toEqual([
        500,
        'text/plain',
        'Traceback: boom',
      ]);
      const t = await request(`${s().tool.url}/v1/tools/search`, {
        method: 'POST',
        body: JSON.stringify({ args: 'q' }),
      });
      expect([t.statusCode, await t.body.text()]).toEqual([200, 'cnrynotjson']);
      expect(s().provider.completions()).toHaveLength(1);
      expect(s().tool.calls()).toHaveLength(1);
    } finally {
      s().provider.reset();
      s().tool.reset();
    }
  });
});
