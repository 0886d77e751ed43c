/**
 * What verdict.json records beside the verdict so an auditor can tell what was certified and
 * where: a fingerprint of the target (its module file, or its manifest and base URL) and the
 * environment (Node, and the versions of the kit services found here). Every probe is bounded.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { findToxiproxyBinary } from '../../fixtures/faults/toxiproxy-server.js';
import { findFerretdbBinary } from '../../fixtures/services/ferretdb.js';

export interface TargetFingerprint {
  readonly kind: 'module' | 'manifest' | 'url';
  /** sha256 of the module file, or of the manifest file. */
  readonly sha256: string | null;
  readonly file?: string;
  readonly baseUrl?: string;
}

export interface RunEnvironment {
  readonly node: string;
  readonly platform: string;
  readonly toxiproxy: string | null;
  readonly ferretdb: string | null;
  readonly postgresql: string | null;
}

function sha256Of(file: string | undefined): string | null {
  if (!file || !existsSync(file)) return null;
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function baseUrlOf(manifestFile: string): string | undefined {
  try {
    const m = JSON.parse(readFileSync(manifestFile, 'utf8')) as { baseUrl?: unknown };
    return typeof m.baseUrl === 'string' ? m.baseUrl : undefined;
  } catch {
    return undefined;
  }
}

export function fingerprintTarget(target: string, manifest?: string): TargetFingerprint {
  if (/^https?:\/\//i.test(target)) {
    return { kind: 'url', sha256: sha256Of(manifest), baseUrl: target, ...(manifest ? { file: manifest } : {}) };
  }
  if (target.endsWith('.json')) {
    const baseUrl = baseUrlOf(target);
    return { kind: 'manifest', sha256: sha256Of(target), file: target, ...(baseUrl ? { baseUrl } : {}) };
  }
  return { kind: 'module', sha256: sha256Of(target), file: target };
}

/** First line of `file args`, or null when it is absent or does not answer within 5 s. */
function versionLine(file: string | null, args: readonly string[], pattern: RegExp): string | null {
  if (!file) return null;
  try {
    const out = execFileSync(file, args, { timeout: 5_000, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return pattern.exec(out)?.[1]?.slice(0, 80) ?? null;
  } catch {
    return null;
  }
}

export function runEnvironment(): RunEnvironment {
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    toxiproxy: process.env.TOXIPROXY_URL
      ? `at ${process.env.TOXIPROXY_URL}`
      : versionLine(findToxiproxyBinary(), ['-version'], /version\s+(\S+)/),
    ferretdb: versionLine(findFerretdbBinary(), ['--version', `--state-dir=${os.tmpdir()}`], /^version:\s*(\S+)/m),
    postgresql:
      versionLine('postgres', ['--version'], /(\d+(?:\.\d+)*)/) ??
      versionLine('psql', ['--version'], /(\d+(?:\.\d+)*)/),
  };
}
