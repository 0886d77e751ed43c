import { describe, expect, it } from 'vitest';
import { ContractError } from '../../contract/errors.js';
import { MEMORY_POLICY } from '../../reference-impl/memory/memory-policy.js';
import { keyProblem, validateProposal, validExpectedRevision } from '../../reference-impl/memory/validate.js';

const ok = { key: 'prefs/tea', kind: 'semantic', content: 'likes tea', contentType: 'text/plain' };

describe('memory validation (pipeline step 2)', () => {
  it('accepts a well-formed proposal and defaults onConflict to reject', () => {
    const v = validateProposal(ok);
    expect(v).toMatchObject({ ok: true, proposal: { key: 'prefs/tea', onConflict: 'reject', source: undefined } });
  });

  it('classifies keys: invalid, cross-scope, protected', () => {
    expect(keyProblem('a/b-c_d.e')).toBeNull();
    expect(keyProblem('')).toBe('invalid_key');
    expect(keyProblem('k'.repeat(MEMORY_POLICY.maxKeyLength))).toBeNull();
    expect(keyProblem('k'.repeat(MEMORY_POLICY.maxKeyLength + 1))).toBe('invalid_key');
    expect(keyProblem('a//b')).toBe('invalid_key');
    expect(keyProblem('a b')).toBe('invalid_key');
    expect(keyProblem('ключ')).toBe('invalid_key');
    expect(keyProblem('a\u0000')).toBe('invalid_key');
    expect(keyProblem('a\ud800')).toBe('invalid_key');
    for (const k of ['../x', 'a/../b', '/abs', 'a\\b', '%2e%2e/x', './x', 'a/%2F'])
      expect(keyProblem(k), k).toBe('cross_scope');
    expect(keyProblem('skills/deploy')).toBe('protected_skill');
    expect(keyProblem('SKILLS/deploy')).toBe('protected_skill');
    expect(keyProblem(42)).toBe('invalid_key');
  });

  it('collects every reason at once', () => {
    const v = validateProposal({
      key: '../x',
      kind: 'bogus',
      content: 'x\u0007',
      contentType: 'text/html',
      retentionSeconds: -5,
    });
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect([...v.reasons].sort()).toEqual(
        ['cross_scope', 'invalid_content', 'invalid_content_type', 'invalid_kind', 'invalid_retention'].sort(),
      );
    }
  });

  it('bounds content in UTF-8 bytes, exactly at the limit', () => {
    const max = MEMORY_POLICY.maxContentBytes;
    expect(validateProposal({ ...ok, content: 'a'.repeat(max) }).ok).toBe(true);
    expect(validateProposal({ ...ok, content: 'a'.repeat(max + 1) })).toEqual({
      ok: false,
      reasons: ['content_too_large'],
    });
    expect(validateProposal({ ...ok, content: 'é'.repeat(max / 2 + 1) })).toEqual({
      ok: false,
      reasons: ['content_too_large'],
    });
  });

  it('rejects deep, broken or escape-smuggling JSON', () => {
    const json = (content: string) => validateProposal({ ...ok, content, contentType: 'application/json' });
    expect(json('{"a":[1,2,{"b":"c"}]}').ok).toBe(true);
    expect(json(`${'['.repeat(33)}${']'.repeat(33)}`).ok).toBe(false);
    expect(json(`${'['.repeat(32)}${']'.repeat(32)}`).ok).toBe(true);
    expect(json('{"a":')).toEqual({ ok: false, reasons: ['invalid_content'] });
    expect(json('{"a":"\\u0000"}')).toEqual({ ok: false, reasons: ['invalid_content'] });
    expect(json('"\\udc00"')).toEqual({ ok: false, reasons: ['invalid_content'] });
  });

  it('rejects JSON that repeats a member name (I-JSON), at any depth, and only that', () => {
    const json = (content: string) => validateProposal({ ...ok, content, contentType: 'application/json' });
    for (const dup of [
      '{"a":"x","a":"y"}',
      '{"a":{"s":"x","s":"y"}}',
      '{"i":[{"t":"x","t":"y"}]}',
      '{"a":1,"a":{"b":"c"}}',
    ]) {
      expect(json(dup), dup).toEqual({ ok: false, reasons: ['invalid_content'] });
    }
    for (const fine of [
      '{"a":"\\"q\\"","b":["x","y\\\\"],"c":{"d":1,"e":null}}',
      '{"__proto__":"x","y":"z"}',
      '[{"a":"x"},{"a":"y"}]',
    ]) {
      expect(json(fine).ok, fine).toBe(true);
    }
  });

  it('requires a well-formed source on episodic references only', () => {
    const ep = { ...ok, kind: 'episodic_reference' };
    expect(validateProposal(ep)).toEqual({ ok: false, reasons: ['unreadable_source'] });
    expect(validateProposal({ ...ep, source: { bindingId: 'bnd_1', epoch: 1, revision: 0 } }).ok).toBe(true);
    expect(validateProposal({ ...ep, source: { bindingId: 'bnd 1', epoch: 1, revision: 0 } }).ok).toBe(false);
    expect(validateProposal({ ...ok, source: { bindingId: 'bnd_1', epoch: 1, revision: 0 } })).toEqual({
      ok: false,
      reasons: ['invalid_kind'],
    });
  });

  it('throws invalid_argument for non-object proposals, bad onConflict and bad expected revisions', () => {
    for (const p of [null, 'x', 3, undefined, [ok]]) expect(() => validateProposal(p)).toThrow(ContractError);
    expect(() => validateProposal({ ...ok, onConflict: 'merge' })).toThrow(/invalid/);
    expect(validExpectedRevision(null, true)).toBeNull();
    expect(validExpectedRevision(3, false)).toBe(3);
    for (const bad of [0, -1, 1.5, Number.NaN, '2', null])
      expect(() => validExpectedRevision(bad, false)).toThrow(ContractError);
  });
});
