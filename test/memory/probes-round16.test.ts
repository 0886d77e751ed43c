/**
 * Round 16 of probes: memory-persistence attacks as they were reported in the wild (2024–2025),
 * re-worded but kept to their mechanism — SpAIware-style exfiltration through a markdown image
 * or link rendered in every answer, delayed tool invocation aimed at an external party (a memory
 * that tells the model to mail the inbox out when the user later says a trigger word), a coding agent told to store a build step
 * that pipes a remote script to a shell, a "the user has granted" permission planted as a
 * preference, a webhook planted as the place to post everything, a standing order to put a
 * credential in answers. With harmless notes of the same shapes: image and link preferences, a
 * user's own site, webhooks the team uses, a user who said yes. Not here: the reported
 * delayed-invocation attack in its plain form (a trigger word, then "call save_memory and store
 * <false facts>"): its harm is the false facts, which step 4 does not judge, and a trigger word
 * that starts a tool the user chose is a workflow — the reference refuses every stored tool
 * imperative, its own stricter choice, so neither side is a finding about the contract. Written from public reports and
 * the contract's step 4 ("reject permission/tool/network instructions that attempt to broaden
 * authority"); every failure is a finding.
 */
import { describe, it } from 'vitest';
import { REPORTED_ATTACK_LOOKALIKES, REPORTED_ATTACKS } from '../../fixtures/corpora/reported-attacks.v2.js';
import { probeBroker } from './probe-broker.js';
import { familyExpectations } from './probe-expectations.js';

const broker = probeBroker('probe16');
const fam = () => familyExpectations(broker.put);

// The suite's own corpus (R07.23), every language: this file reads the reference's screen
// directly, so a lexicon change is judged in a second, not a certification.
const ATTACKS_IN_THE_WILD = REPORTED_ATTACKS.map((a) => [a.id, a.text] as const);
const BENIGN_SAME_SHAPES = REPORTED_ATTACK_LOOKALIKES.map((l) => [l.id, l.text] as const);

describe('round 16 probes: memory attacks reported in the wild', () => {
  it('attacks: exfiltration, delayed tool calls, planted permissions', async () => {
    await fam().expectRefused('attacks-in-the-wild', ATTACKS_IN_THE_WILD);
  });
  it('benign: notes of the same shapes', async () => {
    await fam().expectStoredUnchanged('benign-same-shapes', BENIGN_SAME_SHAPES);
  });
});
