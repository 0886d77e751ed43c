/**
 * `smtc certify`'s options and the environment, parsed once into the run's validated
 * settings and selection. Every conflict and bad value is a UsageError/SettingsError with one
 * line naming the flag — raised before anything runs or is written.
 */
import path from 'node:path';
import {
  harnessFromEnv,
  parseSettings,
  type RunSettings,
  settingsFromEnv,
} from '../../fixtures/settings/run-settings.js';
import { kitVersion } from './kit-version.js';
import { decodeReplayToken } from './replay-token.js';
import { parseOnlyList, replaySelection, type Selection, selectionOf, UsageError } from './selection.js';

export interface CertifyFlags {
  readonly target?: string;
  readonly manifest?: string;
  readonly profile?: string;
  readonly only?: string;
  readonly replay?: string;
  readonly requireAll?: boolean;
  readonly seed?: string;
  readonly runsScale?: string;
  readonly harness?: string;
}

const FLAG: Record<string, string> = {
  target: '--target',
  manifest: '--manifest',
  seed: '--seed',
  runsScale: '--runs-scale',
  replay: '--replay',
  harness: '--harness',
};

function numberFlag(v: string | undefined): number | undefined {
  return v === undefined ? undefined : v.trim() === '' ? Number.NaN : Number(v);
}

/** A replay runs under the harness its failure was found under; a different one asked for is an error. */
function replayHarness(fromToken: string, asked: string | undefined): string {
  if (asked !== undefined && asked.trim() !== fromToken) {
    throw new UsageError(
      `--replay: the token's failure was found under harness ${fromToken}; it replays only under that one (drop --harness / SMTC_HARNESS)`,
    );
  }
  return fromToken;
}

export function certifyInputs(
  flags: CertifyFlags,
  env: NodeJS.ProcessEnv = process.env,
): { settings: RunSettings; selection: Selection } {
  if (env.SMTC_PATH) throw new UsageError('SMTC_PATH is no longer read: replay a failure with --replay TOKEN');
  const fromEnv = settingsFromEnv(env);
  const target = flags.target ?? fromEnv.target;
  if (flags.manifest !== undefined && !/^https?:\/\//i.test(target ?? '')) {
    throw new UsageError('--manifest goes with --target http://… (a manifest file alone is --target FILE)');
  }
  if (flags.replay !== undefined) {
    for (const [flag, v] of [
      ['--only', flags.only],
      ['--profile', flags.profile],
      ['--seed', flags.seed],
    ] as const) {
      if (v !== undefined)
        throw new UsageError(`--replay and ${flag} are exclusive: a replay runs the token's one clause`);
    }
  }
  const replay = flags.replay !== undefined ? decodeReplayToken(flags.replay, kitVersion()) : undefined;
  const raw = {
    ...(target ? { target } : {}),
    ...(flags.manifest !== undefined
      ? { manifest: path.resolve(flags.manifest) }
      : fromEnv.manifest
        ? { manifest: fromEnv.manifest }
        : {}),
    requireAll: Boolean(flags.requireAll) || fromEnv.requireAll,
    harness: replay?.harness
      ? replayHarness(replay.harness, flags.harness ?? harnessFromEnv(env))
      : (flags.harness ?? fromEnv.harness),
    seed: numberFlag(flags.seed) ?? fromEnv.seed,
    runsScale: numberFlag(flags.runsScale) ?? fromEnv.runsScale,
    ...(replay ? { replay } : {}),
    services: fromEnv.services,
  };
  const settings = parseSettings(raw, 'options', (p) => FLAG[p] ?? p);
  const selection = replay
    ? replaySelection(replay.clause)
    : selectionOf({
        ...(flags.profile !== undefined ? { profile: flags.profile } : {}),
        ...(flags.only !== undefined ? { only: parseOnlyList(flags.only) } : {}),
      });
  return { settings, selection };
}
