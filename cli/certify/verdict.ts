/**
 * Verdict per requirement from clause results. A requirement is `certified` only when it has
 * clauses and every one passed; any failure makes it `failed`; anything not run (a missing
 * capability, a missing service, no suite at all) makes it `not_run` with the reason. A
 * certification with anything not run is not certified.
 */
import type { ClauseContract } from '../../contract/clauses.js';
import { REQUIREMENTS, type RequirementId } from '../../contract/requirements.js';
import type { HarnessId, Replay } from '../../fixtures/settings/run-settings.js';
import { kitVersion } from './kit-version.js';
import { encodeReplayToken } from './replay-token.js';
import type { RunEnvironment, TargetFingerprint } from './run-metadata.js';
import type { Selection } from './selection.js';

export type ClauseState = 'passed' | 'failed' | 'not_run';

export interface ClauseResult {
  /** `R02.3`, or `R02` for a file-level failure. */
  readonly id: string;
  readonly requirement: RequirementId;
  readonly title: string;
  readonly state: ClauseState;
  readonly durationMs: number;
  readonly file: string;
  /** Failure message or not-run reason. */
  readonly message?: string;
  /** fast-check replay data when the failure came from a property. */
  readonly seed?: number;
  readonly path?: string;
  /** `smtc certify --replay TOKEN` replays exactly this clause's failure. */
  readonly replayToken?: string;
  /** The contract sentence the clause enforces, and whether it is the kit's interpretation. */
  readonly contract?: ClauseContract;
  /** Measurements the scenario reported (e.g. corpus rates). */
  readonly annotations: readonly string[];
}

export type RequirementState = 'certified' | 'failed' | 'not_run';

export interface RequirementVerdict {
  readonly id: RequirementId;
  readonly title: string;
  readonly verdict: RequirementState;
  readonly reasons: readonly string[];
  readonly clauses: readonly ClauseResult[];
}

export interface Certification {
  readonly tool: { readonly name: 'smtc'; readonly version: string };
  readonly target: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  /** `interrupted`: the run was stopped by a signal; the report is partial and no verdict. */
  readonly overall: 'certified' | 'not_certified' | 'failed' | 'interrupted';
  /** Why the run ended early (an interrupt, a watchdog bound); absent for a run that finished. */
  readonly stopped?: string;
  readonly requireAll: boolean;
  /** The native harness (and its codec) every binding of the run was opened with (`--harness`). */
  readonly harness?: { readonly id: string; readonly codec: string };
  /** What was selected: a profile (name@version), an `--only` list, or a replay's clause. */
  readonly selection?: Selection;
  /** The replayed clause, seed and path when this run was a replay; null otherwise. */
  readonly replay?: Replay | null;
  /**
   * What was certified: name, declared capabilities and — when it declares them — native
   * harnesses as the suites saw them, and a fingerprint.
   */
  readonly targetInfo?: {
    readonly name: string;
    readonly capabilities: Readonly<Record<string, boolean | undefined>> | null;
    /** Absent: the target declares no harnesses (it is run with every one). */
    readonly harnesses?: readonly string[];
    readonly fingerprint: TargetFingerprint;
  };
  readonly environment?: RunEnvironment;
  readonly requirements: readonly RequirementVerdict[];
  /** Extra artefacts written beside the verdict (canary report …), relative file names. */
  readonly artefacts: readonly string[];
}

export function decideRequirement(
  id: RequirementId,
  clauses: readonly ClauseResult[],
  selected: boolean,
): RequirementVerdict {
  const title = REQUIREMENTS.find((r) => r.id === id)?.title ?? id;
  const mine = clauses.filter((c) => c.requirement === id);
  if (!selected) return { id, title, verdict: 'not_run', reasons: ['not selected for this run'], clauses: [] };
  if (mine.length === 0) {
    return { id, title, verdict: 'not_run', reasons: ['no suite for this requirement in this build'], clauses: [] };
  }
  const failed = mine.filter((c) => c.state === 'failed');
  if (failed.length > 0) {
    return {
      id,
      title,
      verdict: 'failed',
      reasons: failed.map(
        (c) =>
          `${c.id} ${c.title}${c.replayToken ? ` (replay: --replay ${c.replayToken})` : c.seed !== undefined ? ` (seed ${c.seed}, path "${c.path}")` : ''}`,
      ),
      clauses: mine,
    };
  }
  const notRun = mine.filter((c) => c.state === 'not_run');
  if (notRun.length > 0) {
    return {
      id,
      title,
      verdict: 'not_run',
      reasons: notRun.map((c) => `${c.id}: ${c.message ?? 'not run'}`),
      clauses: mine,
    };
  }
  return { id, title, verdict: 'certified', reasons: [], clauses: mine };
}

export function overallOf(reqs: readonly RequirementVerdict[]): 'certified' | 'not_certified' | 'failed' {
  if (reqs.some((r) => r.verdict === 'failed')) return 'failed';
  if (reqs.every((r) => r.verdict === 'certified')) return 'certified';
  return 'not_certified';
}

/** fast-check's failure message carries `{ seed: N, path: "…" }`; with a clause id, a replay token too. */
export function replayOf(
  message: string,
  clause?: string,
  harness?: HarnessId,
): { seed?: number; path?: string; replayToken?: string } {
  const m = /seed:\s*(-?\d+),\s*path:\s*"([^"]*)"/.exec(message);
  if (!m) return {};
  const seed = Number(m[1]);
  const path = m[2] ?? '';
  const commands = /\/\*replayPath="([^"]*)"\*\//.exec(message)?.[1];
  const replay = {
    clause: clause ?? '',
    seed,
    path,
    ...(commands ? { commands } : {}),
    ...(harness ? { harness } : {}),
  };
  const token = clause && /^R\d{2}\.\d+$/.test(clause) ? { replayToken: encodeReplayToken(replay, kitVersion()) } : {};
  return { seed, path, ...token };
}
