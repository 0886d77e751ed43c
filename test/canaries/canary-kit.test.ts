import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { CanaryKit, MARKER_PREFIX } from '../../canaries/canary-kit.js';
import { FORBIDDEN_CATEGORIES } from '../../canaries/forbidden-categories.js';

async function secretlintFindings(content: string): Promise<string[]> {
  const r = await lintSource({
    source: { content, filePath: '/virtual/canary.txt', contentType: 'text' },
    options: { config: { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] } },
  });
  return r.messages.map((m) => m.ruleId);
}

describe('canary minting', () => {
  it('mints one canary per forbidden category, each carrying its unique marker', () => {
    const kit = new CanaryKit();
    const all = kit.mintAll();
    expect(Object.keys(all).sort()).toEqual([...FORBIDDEN_CATEGORIES].sort());
    const markers = new Set<string>();
    for (const c of Object.values(all)) {
      expect(c.marker).toMatch(new RegExp(`^${MARKER_PREFIX}[a-z2-7]{16}$`));
      expect(c.value.toLowerCase()).toContain(c.marker);
      markers.add(c.marker);
    }
    expect(markers.size).toBe(FORBIDDEN_CATEGORIES.length);
    expect(new Set(kit.canaries().map((c) => c.id)).size).toBe(FORBIDDEN_CATEGORIES.length);
  });

  it('is unique per run: two kits never share a marker', () => {
    const a = new CanaryKit().mintAll();
    const b = new CanaryKit().mintAll();
    const am = new Set(Object.values(a).map((c) => c.marker));
    expect(Object.values(b).some((c) => am.has(c.marker))).toBe(false);
  });

  it('shapes secrets like the real thing: the recommended secretlint preset flags them', async () => {
    const kit = new CanaryKit();
    expect(await secretlintFindings(`OPENAI_API_KEY=${kit.mint('api_key').value}\n`)).not.toHaveLength(0);
    expect(await secretlintFindings(`token: ${kit.mint('bearer_token').value}\n`)).not.toHaveLength(0);
    expect(await secretlintFindings(`DATABASE_URL=${kit.mint('environment_variable').value}\n`)).not.toHaveLength(0);
  });

  it('shapes the rest by category (header, email, traceback, Kubernetes Secret, checkpoint)', () => {
    const kit = new CanaryKit();
    expect(kit.mint('authorization_header').value).toMatch(/^Basic [A-Za-z0-9]{32}$/);
    expect(kit.mint('cookie').value).toMatch(/^sessionid=\w+; csrftoken=\w+$/);
    expect(kit.mint('email').value).toMatch(/^[a-z0-9.]+@example\.com$/);
    expect(kit.mint('provider_stderr').value).toMatch(/^Traceback \(most recent call last\):\n/);
    expect(JSON.parse(kit.mint('kubernetes_object').value)).toMatchObject({ kind: 'Secret', apiVersion: 'v1' });
    expect(JSON.parse(kit.mint('native_checkpoint').value)).toHaveProperty('channel_values');
    const name = kit.mint('person_name');
    expect(name.value).not.toContain(name.marker); // capitalised: only case-folding finds it
  });

  it('records where each canary was planted and rejects bad locations and foreign canaries', () => {
    const kit = new CanaryKit();
    const c = kit.mint('cookie');
    expect(kit.plant(c, 'request.header:cookie')).toBe(c.value);
    kit.plant(c, 'request.header:cookie');
    kit.plant(c, 'memory.content');
    expect(kit.plantedAt(c)).toEqual(['request.header:cookie', 'memory.content']);
    expect(() => kit.plant(c, '')).toThrow(TypeError);
    expect(() => kit.plant(c, 'x'.repeat(201))).toThrow(TypeError);
    expect(() => kit.plant(new CanaryKit().mint('cookie'), 'x')).toThrow(/not minted by this kit/);
    expect(() => kit.mint('not_a_category' as never)).toThrow(TypeError);
  });
});
