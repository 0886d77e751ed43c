/**
 * The kit accepts standard behaviour: a control target built only from stock OpenTelemetry JS
 * (fixtures/targets/stock-otel/) is certified on every R09 clause W3C Trace Context decides,
 * and fails only clauses whose rule is the contract's — each failure naming the contract
 * sentence it enforces. A clause that failed it for standard behaviour would show up here.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../fixtures/targets/load-target.js';
import { runCertify } from '../selftest/run-certify.js';

const TARGET = path.join(REPO_ROOT, 'fixtures/targets/stock-otel/stock-otel-target.ts');
/**
 * Clauses whose rule goes beyond W3C: the contract's baggage schema and external suppression
 * (stock OpenTelemetry propagates to every destination, look-alike origins and the origin a
 * redirect names included). Sorted.
 */
const CONTRACT_ONLY = ['R09.13', 'R09.17', 'R09.5', 'R09.6', 'R09.8'];

describe('stock OpenTelemetry control target', () => {
  it('passes every W3C-decided R09 clause and fails only contract rules, each naming its sentence', async () => {
    const run = await runCertify(['--target', TARGET, '--only', 'R09']);
    const r09 = run.verdict?.requirements.find((r) => r.id === 'R09');
    expect(r09, run.output).toBeDefined();
    const clauses = r09!.clauses;
    const failed = clauses.filter((c) => c.state === 'failed');
    for (const c of failed)
      expect(c.title, `${c.id} fails a stock target without naming a contract rule`).toMatch(/contract: "/);
    expect([...new Set(failed.map((c) => c.id))].sort()).toEqual(CONTRACT_ONLY);
    // Standard behaviour is certified: malformed context ignored, W3C-valid context continued,
    // untrusted and claimed-trust context replaced, trace context never authenticates.
    for (const id of ['R09.1', 'R09.2', 'R09.3', 'R09.4', 'R09.7', 'R09.9', 'R09.10', 'R09.11', 'R09.15', 'R09.16']) {
      const of = clauses.filter((c) => c.id === id);
      expect(of.length, `${id} ran`).toBeGreaterThan(0);
      expect(
        of.map((c) => c.state),
        id,
      ).toEqual(of.map(() => 'passed'));
    }
  }, 300_000);
});
