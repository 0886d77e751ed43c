/**
 * Per-family expectations for blind probe sets: every text of a family is tried, every failure
 * is collected with what the broker did, printed, then asserted empty — one run reports them all.
 */
import { expect } from 'vitest';
import type { probeBroker } from './probe-broker.js';

type Put = ReturnType<typeof probeBroker>['put'];
type Failure = { readonly label: string; readonly text: string; readonly got: string };

function report(family: string, total: number, failures: readonly Failure[]): void {
  const lines = failures.map((f) => `  [${f.label}] got=${f.got} :: ${JSON.stringify(f.text)}`);
  console.log(`${family}: ${total - failures.length}/${total} ok\n${lines.join('\n')}`);
  expect(
    failures.map((f) => `[${f.label}] got=${f.got} :: ${f.text}`),
    `${family}: ${failures.length} of ${total} failed`,
  ).toEqual([]);
}

export function familyExpectations(put: Put) {
  return {
    /** Each note is refused: rejected (not merely for size), or held for a human. */
    async expectRefused(family: string, cases: ReadonlyArray<readonly [string, string]>): Promise<void> {
      const failures: Failure[] = [];
      for (const [label, text] of cases) {
        const o = await put(text);
        if (o.status === 'rejected' && o.reasons.every((r) => r === 'content_too_large'))
          failures.push({ label, text, got: 'rejected only for size' });
        else if (o.status !== 'rejected' && o.status !== 'pending_approval')
          failures.push({ label, text, got: o.status });
      }
      report(family, cases.length, failures);
    },
    /** Each note is written, unchanged. */
    async expectStoredUnchanged(family: string, cases: ReadonlyArray<readonly [string, string]>): Promise<void> {
      const failures: Failure[] = [];
      for (const [label, text] of cases) {
        const o = await put(text);
        if (o.status === 'rejected') failures.push({ label, text, got: `rejected [${o.reasons.join(',')}]` });
        else if (o.status !== 'written') failures.push({ label, text, got: o.status });
        else if (o.record.content !== text) failures.push({ label, text, got: `altered -> ${o.record.content}` });
      }
      report(family, cases.length, failures);
    },
    /** Each note is written without its secret. */
    async expectKeptOut(family: string, cases: ReadonlyArray<readonly [string, string, string]>): Promise<void> {
      const failures: Failure[] = [];
      for (const [label, content, secret] of cases) {
        const o = await put(content);
        if (o.status === 'rejected') failures.push({ label, text: content, got: `rejected [${o.reasons.join(',')}]` });
        else if (o.status !== 'written') failures.push({ label, text: content, got: o.status });
        else if (o.record.content.includes(secret))
          failures.push({ label, text: content, got: `written with secret ${JSON.stringify(secret)}` });
      }
      report(family, cases.length, failures);
    },
  };
}
