/** JUnit XML for CI systems: one testsuite per requirement, one testcase per clause. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { contractLine } from '../certify/failure-text.js';
import type { Certification } from '../certify/verdict.js';

const esc = (s: string): string =>
  s
    // XML 1.0 forbids most control characters even when escaped.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

export function renderJunit(c: Certification): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = c.requirements.reduce((n, r) => n + Math.max(1, r.clauses.length), 0);
  const failures = c.requirements.reduce((n, r) => n + r.clauses.filter((x) => x.state === 'failed').length, 0);
  lines.push(
    `<testsuites name="smtc certification" tests="${total}" failures="${failures}" time="${(c.durationMs / 1000).toFixed(3)}">`,
  );
  for (const r of c.requirements) {
    const cs = r.clauses;
    const f = cs.filter((x) => x.state === 'failed').length;
    const s = cs.filter((x) => x.state === 'not_run').length + (cs.length === 0 ? 1 : 0);
    lines.push(
      `  <testsuite name="${esc(`${r.id} ${r.title}`)}" tests="${Math.max(1, cs.length)}" failures="${f}" skipped="${s}">`,
    );
    if (cs.length === 0) {
      lines.push(
        `    <testcase classname="${r.id}" name="${esc(`${r.id} not run`)}"><skipped message="${esc(r.reasons.join('; '))}"/></testcase>`,
      );
    }
    for (const x of cs) {
      const open = `    <testcase classname="${r.id}" name="${esc(`${x.id} ${x.title}`)}" file="${esc(x.file)}" time="${(x.durationMs / 1000).toFixed(3)}">`;
      if (x.state === 'passed') lines.push(`${open}</testcase>`);
      else if (x.state === 'not_run')
        lines.push(`${open}<skipped message="${esc(x.message ?? 'not run')}"/></testcase>`);
      else {
        // The explanation carries the replay token; seed and path for a reader replaying by hand.
        const replay =
          x.replayToken && !(x.message ?? '').includes(x.replayToken)
            ? `\nreplay: smtc certify --replay ${x.replayToken}`
            : '';
        const seed = x.seed !== undefined ? `\n(fast-check seed ${x.seed}, path "${x.path}")` : '';
        lines.push(
          `${open}<failure message="${esc((x.message ?? '').split('\n')[0] ?? '')}">${esc(`${contractLine(x.contract)}\n${x.message ?? ''}${replay}${seed}`.trim())}</failure></testcase>`,
        );
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

export function writeJunit(dir: string, c: Certification): string {
  const file = path.join(dir, 'junit.xml');
  writeFileSync(file, renderJunit(c));
  return file;
}
