/**
 * The reference's validation of a run request (its own, not a contract requirement): every
 * malformed shape, every bound at its edge, each answered `invalid_argument` before anything
 * runs; a request exactly at a bound is accepted. From the Stryker runs triage (family R1 in
 * mutation/survivors.md): the suites send only well-formed requests and a few gross violations.
 */
import { describe, expect, it } from 'vitest';
import { ContractError } from '../../contract/errors.js';
import { RUN_BOUNDS, validateRunRequest } from '../../reference-impl/runs/control-plane/run-request-validation.js';

const ok = { bindingId: 'b1', agent: 'agent-a', steps: [] as unknown[] };

function rejects(r: unknown): void {
  let err: unknown;
  try {
    validateRunRequest(r);
  } catch (e) {
    err = e;
  }
  expect(err, JSON.stringify(r)?.slice(0, 200)).toBeInstanceOf(ContractError);
  expect((err as ContractError).code).toBe('invalid_argument');
}

function accepts(r: unknown): void {
  expect(validateRunRequest(r)).toBe(r);
}

const emits = (n: number) => Array.from({ length: n }, () => ({ type: 'emit', text: '' }));
/** Subagents nested `n` deep around one emit step. */
function nested(n: number): unknown[] {
  let steps: unknown[] = [{ type: 'emit', text: 'x' }];
  for (let i = 0; i < n; i++) steps = [{ type: 'subagent', steps }];
  return steps;
}

describe('run request validation (reference)', () => {
  it.each([
    ['null', null],
    ['a string', 'run'],
    ['a number', 7],
  ])('refuses a request that is %s', (_c, r) => rejects(r));

  it.each(['bindingId', 'agent'])('%s must be a non-empty string of at most maxIdChars', (field) => {
    rejects({ ...ok, [field]: undefined });
    rejects({ ...ok, [field]: 42 });
    rejects({ ...ok, [field]: '' });
    rejects({ ...ok, [field]: 'x'.repeat(RUN_BOUNDS.maxIdChars + 1) });
    accepts({ ...ok, [field]: 'x'.repeat(RUN_BOUNDS.maxIdChars) });
    accepts({ ...ok, [field]: 'x' });
  });

  it('steps must be an array of step objects of a known type', () => {
    rejects({ ...ok, steps: undefined });
    rejects({ ...ok, steps: { type: 'emit', text: '' } });
    rejects({ ...ok, steps: [null] });
    rejects({ ...ok, steps: ['emit'] });
    rejects({ ...ok, steps: [{ type: 5 }] });
    rejects({ ...ok, steps: [{}] });
  });

  it('accepts every step type in its well-formed shape', () => {
    accepts({
      ...ok,
      steps: [
        { type: 'provider', prompt: 'p' },
        { type: 'tool', tool: 'search_web', args: '{}' },
        { type: 'memory_read', scope: 'user', key: 'k' },
        { type: 'memory_write', scope: 'agent', proposal: { key: 'k' } },
        { type: 'subagent', steps: [{ type: 'emit', text: 'x' }] },
        { type: 'emit', text: 'x' },
        { type: 'checkpoint' },
        { type: 'interrupt', value: 'v' },
        { type: 'internal_call' },
      ],
    });
  });

  it('text fields must be strings of at most maxTextChars', () => {
    const max = RUN_BOUNDS.maxTextChars;
    for (const [type, field] of [
      ['provider', 'prompt'],
      ['emit', 'text'],
      ['interrupt', 'value'],
    ] as const) {
      rejects({ ...ok, steps: [{ type }] });
      rejects({ ...ok, steps: [{ type, [field]: 1 }] });
      rejects({ ...ok, steps: [{ type, [field]: 'x'.repeat(max + 1) }] });
      accepts({ ...ok, steps: [{ type, [field]: 'x'.repeat(max) }] });
    }
    rejects({ ...ok, steps: [{ type: 'tool', tool: 'ok_tool', args: 1 }] });
    accepts({ ...ok, steps: [{ type: 'tool', tool: 'ok_tool', args: 'x'.repeat(max) }] });
  });

  it('a tool name is a string of the allowed characters', () => {
    rejects({ ...ok, steps: [{ type: 'tool', args: '' }] });
    rejects({ ...ok, steps: [{ type: 'tool', tool: 7, args: '' }] });
    rejects({ ...ok, steps: [{ type: 'tool', tool: '', args: '' }] });
  });

  it('memory steps need a known scope, a bounded key or a proposal object', () => {
    rejects({ ...ok, steps: [{ type: 'memory_read', scope: 'tenant', key: 'k' }] });
    rejects({ ...ok, steps: [{ type: 'memory_write', scope: 'everyone', proposal: {} }] });
    rejects({ ...ok, steps: [{ type: 'memory_read', scope: 'user', key: 3 }] });
    rejects({ ...ok, steps: [{ type: 'memory_read', scope: 'user', key: 'k'.repeat(RUN_BOUNDS.maxKeyChars + 1) }] });
    accepts({ ...ok, steps: [{ type: 'memory_read', scope: 'user', key: 'k'.repeat(RUN_BOUNDS.maxKeyChars) }] });
    rejects({ ...ok, steps: [{ type: 'memory_write', scope: 'user' }] });
    rejects({ ...ok, steps: [{ type: 'memory_write', scope: 'user', proposal: null }] });
    rejects({ ...ok, steps: [{ type: 'memory_write', scope: 'user', proposal: 'k=v' }] });
  });

  it('a subagent has an array of steps, no durable point among them, and nests at most maxDepth deep', () => {
    rejects({ ...ok, steps: [{ type: 'subagent' }] });
    rejects({ ...ok, steps: [{ type: 'subagent', steps: 'emit' }] });
    rejects({ ...ok, steps: [{ type: 'subagent', steps: [{ type: 'checkpoint' }] }] });
    rejects({ ...ok, steps: [{ type: 'subagent', steps: [{ type: 'interrupt', value: 'v' }] }] });
    // A null inner step is invalid_argument too, never a TypeError.
    rejects({ ...ok, steps: [{ type: 'subagent', steps: [null] }] });
    accepts({ ...ok, steps: nested(RUN_BOUNDS.maxDepth) });
    rejects({ ...ok, steps: nested(RUN_BOUNDS.maxDepth + 1) });
    rejects({ ...ok, steps: nested(RUN_BOUNDS.maxDepth + 5) });
  });

  it('at most maxSteps steps in all, subagents’ steps counted', () => {
    accepts({ ...ok, steps: emits(RUN_BOUNDS.maxSteps) });
    rejects({ ...ok, steps: emits(RUN_BOUNDS.maxSteps + 1) });
    rejects({ ...ok, steps: [...emits(RUN_BOUNDS.maxSteps - 1), { type: 'subagent', steps: emits(1) }] });
  });

  it('headers: an object of strings or string arrays, bounded in names and values', () => {
    rejects({ ...ok, headers: null });
    rejects({ ...ok, headers: 'traceparent: x' });
    rejects({ ...ok, headers: ['traceparent'] });
    rejects({ ...ok, headers: { baggage: [1] } });
    rejects({ ...ok, headers: { baggage: ['a', 2] } });
    accepts({ ...ok, headers: { baggage: ['a', 'b'], traceparent: 'x' } });
    const values = (n: number) => Array.from({ length: n }, () => 'v');
    accepts({ ...ok, headers: { baggage: values(RUN_BOUNDS.maxHeaderValues) } });
    rejects({ ...ok, headers: { baggage: values(RUN_BOUNDS.maxHeaderValues + 1) } });
    const names = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, 'v']));
    accepts({ ...ok, headers: names(RUN_BOUNDS.maxHeaderNames) });
    rejects({ ...ok, headers: names(RUN_BOUNDS.maxHeaderNames + 1) });
  });

  it('resume: an object with a valid interrupt id and a bounded string value', () => {
    accepts({ ...ok, resume: { interruptId: 'int_1', value: 'yes' } });
    rejects({ ...ok, resume: null });
    rejects({ ...ok, resume: 'int_1' });
    rejects({ ...ok, resume: { value: 'yes' } });
    rejects({ ...ok, resume: { interruptId: '', value: 'yes' } });
    rejects({ ...ok, resume: { interruptId: 'int_1' } });
    rejects({ ...ok, resume: { interruptId: 'int_1', value: 'x'.repeat(RUN_BOUNDS.maxTextChars + 1) } });
  });
});
