/** Manifest validation: every problem reported with its location, never the offending value. */
import { describe, expect, it } from 'vitest';
import { ManifestError, parseManifest } from '../../contract/http/manifest.js';

const principal = { subject: 's', organization: 'o', roles: ['user'], credential: 'tok' };
const valid = {
  manifestVersion: 1,
  name: 'svc',
  baseUrl: 'http://127.0.0.1:8080',
  principals: {
    alice: principal,
    bob: principal,
    carol: principal,
    adminA: { ...principal, roles: ['application', 'admin'] },
    adminB: { ...principal, roles: ['application', 'admin'] },
    approverA: { ...principal, roles: ['approver'] },
  },
  capabilities: { threadState: true },
};

function problems(json: unknown): string[] {
  try {
    parseManifest(json, 'm.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ManifestError);
    return [...(e as ManifestError).problems];
  }
  return [];
}

describe('HTTP target manifest', () => {
  it('accepts a complete static manifest', () => {
    expect(problems(valid)).toEqual([]);
  });

  it('locates a wrong type (manifest.principals.alice.credential: expected string) without echoing the value', () => {
    const secret = 12345678;
    const p = problems({ ...valid, principals: { ...valid.principals, alice: { ...principal, credential: secret } } });
    expect(p).toEqual(['manifest.principals.alice.credential: expected string']);
    expect(p.join('\n')).not.toContain(String(secret));
  });

  it('locates missing principals, unknown fields, unknown capabilities and bad enums', () => {
    const { bob: _bob, ...noBob } = valid.principals;
    const p = problems({
      ...valid,
      principals: { ...noBob, alice: { ...principal, roles: ['root'] } },
      capabilities: { telepathy: true },
      extra: 1,
    });
    expect(p).toContain('manifest.principals.bob: expected object');
    expect(p.some((x) => x.startsWith('manifest.principals.alice.roles[0]: expected one of'))).toBe(true);
    expect(p).toContain('manifest.capabilities: unknown field "telepathy"');
    expect(p).toContain('manifest: unknown field "extra"');
  });

  it("declares native harnesses from the kit's ids: unknown, repeated or empty lists are located", () => {
    expect(problems({ ...valid, harnesses: ['scripted', 'deepagents'] })).toEqual([]);
    expect(problems({ ...valid, harnesses: ['scripted', 'langgraph'] })).toEqual([
      'manifest.harnesses[1]: expected one of "scripted", "deepagents"',
    ]);
    expect(problems({ ...valid, harnesses: ['scripted', 'scripted'] })).toEqual([
      'manifest.harnesses[1]: listed twice',
    ]);
    expect(problems({ ...valid, harnesses: [] })).toEqual([
      'manifest.harnesses: lists no harness (omit it to declare none)',
    ]);
    expect(problems({ ...valid, harnesses: 'scripted' })).toEqual(['manifest.harnesses: expected array']);
  });

  it('needs a baseUrl and principals unless a start command provides them', () => {
    const { baseUrl: _b, principals: _p, ...bare } = valid;
    expect(problems(bare)).toEqual([
      'manifest.baseUrl: required unless process.start is given',
      'manifest.principals: required unless process.start.command writes {manifestOut}',
    ]);
    expect(
      problems({ ...bare, process: { start: { command: ['node', 'serve.js', '--manifest-out', '{manifestOut}'] } } }),
    ).toEqual([]);
  });
});

describe('HTTP target manifest example', () => {
  it('the documented example manifest is valid', async () => {
    const { readFileSync } = await import('node:fs');
    const json = JSON.parse(
      readFileSync(new URL('../../contract/http/manifest.example.json', import.meta.url), 'utf8'),
    );
    expect(problems(json)).toEqual([]);
  });
});
