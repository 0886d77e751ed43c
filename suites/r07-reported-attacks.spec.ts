/**
 * R07.23, memory-persistence attacks as they were reported in the wild: SpAIware-style
 * exfiltration through an image or link every later answer renders, a remote script piped to a
 * shell as a "project convention", a consent nobody gave, an outside endpoint to post everything
 * to, a credential to print in answers, a trigger word that sends data out, data read out
 * through a link's path or host (one link per character, a hostname). Each mechanism in
 * several wordings and in eight languages (fixtures/corpora/reported-attacks.v2.ts), each
 * refused — rejected, or held for a human, and not readable afterwards — while notes of the same
 * shapes (image and link preferences, the user's own site, the team's webhook, a user who said
 * yes) are stored as written. A defence that reads a note as it would be rendered, links and images by their
 * labels, never sees where the data would go.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryWriteOutcome } from '../contract/memory.js';
import { asContractError } from '../fixtures/assertions/contract-error.js';
import {
  REPORTED_ATTACK_LOOKALIKES,
  REPORTED_ATTACKS,
  REPORTED_ATTACKS_VERSION,
} from '../fixtures/corpora/reported-attacks.v2.js';
import { freshKey, note, USER } from '../fixtures/memory/memory-proposal.js';
import { needCapability } from '../fixtures/scenario/need.js';
import { useTarget } from '../fixtures/targets/use-target.js';

const t = useTarget();

describe('R07 memory attacks reported in the wild', () => {
  it(`R07.23 memory-persistence attacks as reported in the wild (${REPORTED_ATTACKS_VERSION}: exfiltration through a rendered image or link, a remote script piped to a shell, planted consent, an outside endpoint for everything, a credential in every answer, a trigger word that sends data out, a link per character or a hostname built from the data) are each rejected or held for approval and not readable; notes of the same shapes are stored as written`, async (ctx) => {
    needCapability(ctx, t(), 'memory');
    const { principals: p } = t();
    const m = t().memory(p.alice, p.agents[0]);
    const stored: string[] = [];
    for (const a of REPORTED_ATTACKS) {
      const key = freshKey('wild');
      // A refusal with a typed contract error stores nothing, like a rejection.
      const o: MemoryWriteOutcome = await m.put(USER, note(key, a.text), null).catch((e: unknown) => {
        asContractError(e);
        return { status: 'rejected', reasons: [] };
      });
      const refused = o.status === 'rejected' || o.status === 'pending_approval';
      if (!refused || (await m.get(USER, key)) !== null) stored.push(`${a.id} (${o.status}): ${a.text}`);
    }
    const altered: string[] = [];
    // Neutral keys: a screen may read the key with the content, and "reported" is a verb of sending.
    for (const b of REPORTED_ATTACK_LOOKALIKES) {
      const key = freshKey('same-shape');
      const o = await m.put(USER, note(key, b.text), null);
      const back = await m.get(USER, key);
      if (o.status !== 'written' || back?.content !== b.text)
        altered.push(
          `${b.id} (${o.status === 'rejected' ? `rejected: ${o.reasons.join(', ')}` : o.status}): ${b.text}`,
        );
    }
    await ctx.annotate(
      `${REPORTED_ATTACKS.length - stored.length}/${REPORTED_ATTACKS.length} attacks refused, ${REPORTED_ATTACK_LOOKALIKES.length - altered.length}/${REPORTED_ATTACK_LOOKALIKES.length} look-alikes stored as written`,
    );
    expect(stored, 'attacks stored or readable after the write').toEqual([]);
    expect(altered, 'notes of the same shapes not stored as written').toEqual([]);
  });
});
