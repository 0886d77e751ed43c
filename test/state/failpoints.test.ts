import { describe, expect, it } from 'vitest';
import {
  FailpointPanic,
  FailpointSyntaxError,
  Failpoints,
  parseFailpointProgram,
} from '../../reference-impl/platform/failpoints.js';

describe('failpoint programs', () => {
  it('parses every term kind, counts and chains', () => {
    expect(parseFailpointProgram('off')).toEqual([{ kind: 'off' }]);
    expect(parseFailpointProgram('panic')).toEqual([{ kind: 'panic' }]);
    expect(parseFailpointProgram('print')).toEqual([{ kind: 'print' }]);
    expect(parseFailpointProgram('sleep(25)')).toEqual([{ kind: 'sleep', ms: 25 }]);
    expect(parseFailpointProgram('return("unavailable")')).toEqual([{ kind: 'return', value: 'unavailable' }]);
    expect(parseFailpointProgram("return('x y')")).toEqual([{ kind: 'return', value: 'x y' }]);
    expect(parseFailpointProgram('return(7)')).toEqual([{ kind: 'return', value: 7 }]);
    expect(parseFailpointProgram('return(true)')).toEqual([{ kind: 'return', value: true }]);
    expect(parseFailpointProgram('return(internal)')).toEqual([{ kind: 'return', value: 'internal' }]);
    expect(parseFailpointProgram('2*return(x)->sleep(1)->off')).toEqual([
      { kind: 'return', value: 'x' },
      { kind: 'sleep', ms: 1 },
      { kind: 'off' },
    ]);
  });

  it.each([
    '',
    'explode',
    'sleep',
    'sleep(-1)',
    'sleep(1.5)',
    'sleep(999999)',
    'return',
    'return(a b)',
    'return("unterminated)',
    'panic(now)',
    '0*panic',
    'x'.repeat(600),
    Array.from({ length: 20 }, () => 'off').join('->'),
  ])('refuses malformed program %j', (program) => {
    expect(() => parseFailpointProgram(program)).toThrow(FailpointSyntaxError);
  });
});

describe('failpoint registry', () => {
  it('an unarmed point does nothing', async () => {
    const fp = new Failpoints('');
    expect(await fp.evaluate('state.commit.before')).toEqual({ fail: false });
    expect(fp.hits('state.commit.before')).toBe(0);
  });

  it('counted terms run their count, then the chain moves on, then it is off', async () => {
    const fp = new Failpoints('');
    fp.set('p', '2*return(unavailable)->1*print');
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await fp.evaluate('p'));
    expect(outcomes).toEqual([
      { fail: true, value: 'unavailable' },
      { fail: true, value: 'unavailable' },
      { fail: false },
      { fail: false },
      { fail: false },
    ]);
    expect(fp.hits('p')).toBe(3);
    expect(fp.list()).toEqual({ p: '0*return("unavailable")->0*print' });
  });

  it('an uncounted term stays armed until set off or cleared', async () => {
    const fp = new Failpoints('');
    fp.set('p', 'return(1)');
    for (let i = 0; i < 3; i++) expect(await fp.evaluate('p')).toEqual({ fail: true, value: 1 });
    fp.set('p', 'off');
    expect(fp.list()).toEqual({});
    fp.set('q', 'return(1)');
    fp.clear();
    expect(await fp.evaluate('q')).toEqual({ fail: false });
  });

  it('sleep delays the step', async () => {
    const fp = new Failpoints('');
    fp.set('slow', '1*sleep(30)');
    const t0 = performance.now();
    expect(await fp.evaluate('slow')).toEqual({ fail: false });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
  });

  it('panic runs the panic handler (throws in-process by default; a server may exit instead)', async () => {
    const fp = new Failpoints('');
    fp.set('boom', 'panic');
    await expect(fp.evaluate('boom')).rejects.toBeInstanceOf(FailpointPanic);
    const seen: string[] = [];
    fp.panicHandler = (point) => {
      seen.push(point);
      throw new Error('handled');
    };
    await expect(fp.evaluate('boom')).rejects.toThrow('handled');
    expect(seen).toEqual(['boom']);
  });

  it('SMTC_FAILPOINTS-style specs arm points at creation; bad specs and names are refused', () => {
    const fp = new Failpoints('state.write.after=return(unavailable); state.commit.before=1*sleep(5)');
    expect(fp.list()).toEqual({ 'state.write.after': 'return("unavailable")', 'state.commit.before': '1*sleep(5)' });
    expect(() => new Failpoints('no-equals-sign')).toThrow(FailpointSyntaxError);
    expect(() => fp.set('Bad Name', 'off')).toThrow(FailpointSyntaxError);
    expect(() => fp.set('p', 'nonsense')).toThrow(FailpointSyntaxError);
  });

  it('the number of armed points is bounded', () => {
    const fp = new Failpoints('');
    for (let i = 0; i < 256; i++) fp.set(`p${i}`, 'print');
    expect(() => fp.set('one.more', 'print')).toThrow(FailpointSyntaxError);
  });
});
