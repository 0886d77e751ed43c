/**
 * A service certified by URL declares the native harnesses it runs, as it declares its
 * capabilities: in its manifest (`harnesses`) and its `GET /v1/info`. `smtc serve` declares the
 * reference's (scripted, deepagents) and is certified with `--harness deepagents`; the same
 * service behind a manifest declaring only `scripted` is "not run" for that harness, with the
 * reason; a manifest naming a harness the kit does not know is refused, located, exit 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessSupervisor } from '../../fixtures/faults/process-supervisor.js';
import { runCertify } from './run-certify.js';
import { startSmtcServe } from './smtc-serve.js';

const supervisor = new ProcessSupervisor();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'smtc-service-harnesses-'));
const ONLY = ['--harness', 'deepagents', '--only', 'R02.1'];
let url = '';
let manifestFile = '';

/** The served manifest with `harnesses` replaced, written beside it. */
function manifestWith(harnesses: unknown, name: string): string {
  const m = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  const file = path.join(dataDir, name);
  writeFileSync(file, JSON.stringify({ ...m, harnesses }));
  return file;
}

beforeAll(async () => {
  ({ url, manifest: manifestFile } = await startSmtcServe(supervisor, dataDir, 1));
}, 90_000);

afterAll(async () => {
  await supervisor.stopAll();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('self-test: a service certified by URL declares its harnesses', () => {
  it('smtc serve declares scripted and deepagents (manifest and info) and is certified with --harness deepagents', async () => {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { harnesses?: string[] };
    expect(manifest.harnesses).toEqual(['scripted', 'deepagents']);
    const info = (await (await fetch(`${url}/v1/info`)).json()) as { harnesses?: string[] };
    expect(info.harnesses).toEqual(['scripted', 'deepagents']);

    const run = await runCertify(['--target', url, '--manifest', manifestFile, ...ONLY], 120_000);
    expect(run.verdict, run.output).not.toBeNull();
    const r02 = run.verdict!.requirements.find((r) => r.id === 'R02');
    expect({ verdict: r02?.verdict, reasons: r02?.reasons }, run.output).toEqual({ verdict: 'certified', reasons: [] });
    expect(run.verdict!.targetInfo?.harnesses).toEqual(['scripted', 'deepagents']);
    expect(run.exitCode, run.output).toBe(0);
  }, 120_000);

  it('declaring only scripted, it is "not run" for deepagents, with the reason', async () => {
    const file = manifestWith(['scripted'], 'scripted-only.json');
    const run = await runCertify(['--target', url, '--manifest', file, ...ONLY], 120_000);
    expect(run.verdict, run.output).not.toBeNull();
    const r02 = run.verdict!.requirements.find((r) => r.id === 'R02');
    expect(r02?.verdict, run.output).toBe('not_run');
    expect(r02?.reasons.join('\n')).toMatch(
      /R02\.1: harness deepagents not supported by the target .*declares scripted/,
    );
    expect(run.verdict!.targetInfo?.harnesses).toEqual(['scripted']);
    // Every selected clause was not run: nothing was exercised.
    expect(run.exitCode, run.output).toBe(4);
  }, 120_000);

  it('a manifest naming an unknown harness is refused, located, exit 2, no verdict', async () => {
    const file = manifestWith(['scripted', 'langgraph'], 'unknown-harness.json');
    const run = await runCertify(['--target', url, '--manifest', file, ...ONLY], 60_000);
    expect(run.exitCode, run.output).toBe(2);
    expect(run.output).toMatch(/manifest\.harnesses\[1\]: expected one of "scripted", "deepagents"/);
    expect(run.output).not.toContain('langgraph');
    expect(run.verdict).toBeNull();
  }, 60_000);
});
