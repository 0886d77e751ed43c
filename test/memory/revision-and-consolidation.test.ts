import { describe, expect, it } from 'vitest';
import { consolidate } from '../../reference-impl/memory/consolidation-policy.js';
import { contentHash } from '../../reference-impl/memory/content-hash.js';
import { MEMORY_POLICY } from '../../reference-impl/memory/memory-policy.js';
import { checkRevision } from '../../reference-impl/memory/revision-check.js';
import type { LiveRecord } from '../../reference-impl/memory/stored-record.js';
import { liveRecord } from './live-record.js';

function live(revision: number, content: string, extra: Partial<LiveRecord> = {}): LiveRecord {
  return liveRecord('ns', 'k', content, { org: 'org-a', revision, writer: 'bob', agent: 'agent-alpha', ...extra });
}

describe('revision check (step 6a)', () => {
  it('null expects absence; n expects live revision n', () => {
    expect(checkRevision(null, null)).toEqual({ ok: true });
    expect(checkRevision(null, 1)).toEqual({ ok: false, currentRevision: 0 });
    expect(checkRevision(live(3, 'x'), 3)).toEqual({ ok: true });
    expect(checkRevision(live(3, 'x'), 2)).toEqual({ ok: false, currentRevision: 3 });
    expect(checkRevision(live(3, 'x'), null)).toEqual({ ok: false, currentRevision: 3 });
  });
});

describe('consolidation policy append-text/v1 (step 6b)', () => {
  const history = [
    { revision: 2, writer: 'alice', contentHash: contentHash('two') },
    { revision: 3, writer: 'bob', contentHash: contentHash('three') },
  ];
  const historyFn = (after: number, upTo: number) => history.filter((h) => h.revision > after && h.revision <= upTo);

  it('records every revision after the base, with writer and hash, plus the proposal', () => {
    const c = consolidate({
      current: live(3, 'three'),
      proposalContent: 'late',
      proposalContentType: 'text/plain',
      proposalKind: 'semantic',
      writer: 'carol',
      baseRevision: 1,
      history: historyFn,
    });
    expect(c).toEqual({
      ok: true,
      content: 'three\nlate',
      sourceRevisions: [2, 3],
      sources: [...history, { revision: null, writer: 'carol', contentHash: contentHash('late') }],
    });
  });

  it('does not duplicate content it already holds, and declines JSON, other kinds and oversize results', () => {
    const base = {
      proposalContentType: 'text/plain',
      proposalKind: 'semantic',
      writer: 'a',
      baseRevision: 2,
      history: historyFn,
    };
    const same = consolidate({ ...base, current: live(3, 'three\nlate'), proposalContent: 'late' });
    expect(same.ok && same.content).toBe('three\nlate');
    expect(
      consolidate({ ...base, current: live(3, '{}', { contentType: 'application/json' }), proposalContent: 'x' }),
    ).toEqual({
      ok: false,
      why: 'declined',
    });
    expect(
      consolidate({ ...base, proposalKind: 'procedural', current: live(3, 'three'), proposalContent: 'x' }),
    ).toEqual({
      ok: false,
      why: 'declined',
    });
    const big = 'b'.repeat(MEMORY_POLICY.maxContentBytes);
    expect(consolidate({ ...base, current: live(3, big), proposalContent: 'x' })).toEqual({
      ok: false,
      why: 'too_large',
    });
  });
});
