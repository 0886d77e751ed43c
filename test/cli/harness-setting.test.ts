/**
 * `--harness` / SMTC_HARNESS: validated with the other run settings (one line naming the flag or
 * variable), `scripted` by default, each id mapped to its codec; a head is read by its codec;
 * a target that declares its harnesses and lacks the run's one is "not run", never failed.
 */
import { describe, expect, it } from 'vitest';
import { certifyInputs } from '../../cli/certify/certify-inputs.js';
import { kitVersion } from '../../cli/certify/kit-version.js';
import { decodeReplayToken, encodeReplayToken } from '../../cli/certify/replay-token.js';
import { replayOf } from '../../cli/certify/verdict.js';
import type { DurableStateHead } from '../../contract/state.js';
import { HARNESS_SPECS, headText, payloadWrittenElsewhere } from '../../fixtures/scenario/harness-spec.js';
import { unsupportedHarness } from '../../fixtures/scenario/need.js';
import { HARNESS_IDS, settingsFromEnv } from '../../fixtures/settings/run-settings.js';

const head = (codec: string, bytes: Uint8Array): DurableStateHead =>
  ({ bindingId: 'b', epoch: 0, revision: 1, payload: { codec, bytes } }) as unknown as DurableStateHead;
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('the harness run setting', () => {
  it('defaults to the scripted harness', () => {
    expect(certifyInputs({}, {}).settings.harness).toBe('scripted');
    expect(settingsFromEnv({}).harness).toBe('scripted');
  });

  it('comes from --harness, else SMTC_HARNESS', () => {
    expect(certifyInputs({ harness: 'deepagents' }, {}).settings.harness).toBe('deepagents');
    expect(certifyInputs({}, { SMTC_HARNESS: 'deepagents' }).settings.harness).toBe('deepagents');
    expect(certifyInputs({ harness: 'scripted' }, { SMTC_HARNESS: 'deepagents' }).settings.harness).toBe('scripted');
    expect(certifyInputs({}, { SMTC_HARNESS: '  ' }).settings.harness).toBe('scripted');
  });

  it('a replay runs under the harness its token was found under, and refuses another one asked for', () => {
    const token = (harness?: 'scripted' | 'deepagents') =>
      encodeReplayToken({ clause: 'R02.3', seed: 1, path: '0', ...(harness ? { harness } : {}) }, kitVersion());
    expect(certifyInputs({ replay: token('deepagents') }, {}).settings.harness).toBe('deepagents');
    expect(certifyInputs({ replay: token('deepagents'), harness: 'deepagents' }, {}).settings.harness).toBe(
      'deepagents',
    );
    expect(() => certifyInputs({ replay: token('deepagents'), harness: 'scripted' }, {})).toThrow(
      /found under harness deepagents/,
    );
    expect(() => certifyInputs({ replay: token('scripted') }, { SMTC_HARNESS: 'deepagents' })).toThrow(
      /found under harness scripted/,
    );
    expect(certifyInputs({ replay: token() }, { SMTC_HARNESS: 'deepagents' }).settings.harness).toBe('deepagents');
    // The token a failure prints carries the run's harness.
    const printed = replayOf('{ seed: 5, path: "0:1" }', 'R01.2', 'deepagents').replayToken ?? '';
    expect(decodeReplayToken(printed, kitVersion())).toMatchObject({ clause: 'R01.2', harness: 'deepagents' });
  });

  it('an unknown value is refused in one line naming the flag or variable and the known ids', () => {
    expect(() => certifyInputs({ harness: 'langgraph' }, {})).toThrow(
      /^options: --harness: one of scripted, deepagents$/,
    );
    expect(() => certifyInputs({ harness: '' }, {})).toThrow(/^options: --harness: /);
    expect(() => certifyInputs({}, { SMTC_HARNESS: 'DeepAgents' })).toThrow(
      /^environment: SMTC_HARNESS: one of scripted, deepagents$/,
    );
  });

  it('every harness id has its codec, and a second codec for mismatch clauses', () => {
    expect(Object.keys(HARNESS_SPECS).sort()).toEqual([...HARNESS_IDS].sort());
    expect(HARNESS_SPECS.scripted.codec).toBe('scripted/v1');
    expect(HARNESS_SPECS.deepagents.codec).toBe('langgraph-checkpoint/v1');
    for (const spec of Object.values(HARNESS_SPECS)) expect(spec.otherCodec).not.toBe(spec.codec);
  });
});

describe('reading a head by its codec', () => {
  it('a scripted head is its text; a LangGraph log also shows its checkpoints and writes decoded', () => {
    expect(headText(null)).toBe('');
    expect(headText(head('scripted/v1', new TextEncoder().encode('{"transcript":"hello"}')))).toContain('hello');
    const log = {
      v: 1,
      thread: 'b',
      epoch: 0,
      checkpoints: [['', 'c1', null, 'json', b64('{"messages":"in a checkpoint"}'), b64('{}')]],
      writes: [['', 'c1', 't1', 0, 'messages', 'json', b64('"in a pending write"'), '']],
    };
    const text = headText(head('langgraph-checkpoint/v1', new TextEncoder().encode(JSON.stringify(log))));
    expect(text).toContain('in a checkpoint');
    expect(text).toContain('in a pending write');
    // Bytes that are not a log are still read as they are: nothing hides behind a bad payload.
    expect(headText(head('langgraph-checkpoint/v1', new TextEncoder().encode('plain marker')))).toContain('marker');
  });

  it('a payload written elsewhere is runnable by the harness: text for scripted, the head’s own log for LangGraph', () => {
    const bytes = new TextEncoder().encode('{"v":1}');
    expect(payloadWrittenElsewhere(head('scripted/v1', bytes), 'x', 'scripted/v1')).toEqual({
      codec: 'scripted/v1',
      bytes: new TextEncoder().encode('x'),
    });
    expect(payloadWrittenElsewhere(head('langgraph-checkpoint/v1', bytes), 'x', 'langgraph-checkpoint/v1')).toEqual({
      codec: 'langgraph-checkpoint/v1',
      bytes,
    });
  });
});

describe('a target that declares its harnesses', () => {
  it('is "not run" on a harness it lacks, and runs every harness when it declares none', () => {
    expect(unsupportedHarness({ name: 'x' }, 'deepagents')).toBeNull();
    expect(unsupportedHarness({ name: 'x', harnesses: ['scripted', 'deepagents'] }, 'deepagents')).toBeNull();
    expect(unsupportedHarness({ name: 'x', harnesses: ['scripted'] }, 'deepagents')).toBe(
      'harness deepagents not supported by the target "x" (it declares scripted)',
    );
  });
});
