/**
 * The plug-in interface every certified implementation is reached through. Suites only ever
 * see a `Target`: the bundled reference, a stranger's module, or a service at a URL (through
 * the HTTP adapter) all look the same here.
 */
import type { Bindings, WorkerSession } from './bindings.js';
import type { Approvals, Audit, MemoryBroker, MemoryPolicy } from './memory.js';
import type { Principal, Principals } from './principals.js';
import type { Runs } from './runs.js';
import type { StateLimits, ThreadStateStore } from './state.js';
import type { TelemetryHealth } from './tracing.js';

/** Scenario families a target may support; a suite needing one it lacks reports "not run". */
export const CAPABILITIES = [
  'threadState',
  'memory',
  'runs',
  'telemetry',
  'settableClock',
  'sharedLearning',
  'failpoints',
  'processFaults',
  'networkFaults',
  /** Links a provider-managed remote trace reference to `harness.run` when `options.remoteTraceLinks` declares it safe. */
  'remoteTraceLinks',
  /** Reports whether a memory body still exists anywhere it keeps data (`Target.storage`). */
  'storageInspection',
  /** Its `faults` also honour the failpoints of mark_uncertain and reconcile (`RECONCILIATION_FAILPOINTS`). */
  'reconciliationFailpoints',
] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type Capabilities = Readonly<Partial<Record<Capability, boolean>>>;

/** What the kit gives a target when it creates it. Every URL is loopback. */
export interface HarnessEnv {
  /** A fresh directory the target may use for files (SQLite, logs). */
  readonly tempDir: string;
  /** OTLP/HTTP traces endpoint (…/v1/traces) of the kit's span collector, if any. */
  readonly collectorUrl?: string;
  /** Untrusted external model provider stub. */
  readonly providerUrl?: string;
  /** Tool endpoint stub (untrusted external). */
  readonly toolUrl?: string;
  /** Trusted internal service stub (must receive trace context). */
  readonly trustedServiceUrl?: string;
  /**
   * API URL of a Toxiproxy the kit drives: a target with `networkFaults` puts its internal links
   * (e.g. worker → control plane) behind proxies there and names them in `faults.networkLinks()`.
   */
  readonly toxiproxyUrl?: string;
  /** Per-suite options the target should honour where it can. */
  readonly options?: TargetOptions;
}

export interface TargetOptions {
  /** Enable shared learning (agent-scope writes). Default false, as the contract says. */
  readonly sharedLearning?: boolean;
  /**
   * Telemetry export bounds (ms / counts) used by outage tests. `exportTimeoutMs` bounds one
   * export including the exporter's retries: against a collector that accepts and never answers,
   * each export connection is closed within it and no new attempt is made for that export once
   * it has passed (R10.25 measures it at the socket).
   */
  readonly exportTimeoutMs?: number;
  readonly maxQueueSize?: number;
  /**
   * At most this many export requests open at once per telemetry identity (R10.26 counts them at
   * the collector). A stock BatchSpanProcessor exports one batch at a time on its schedule; a
   * target that also flushes on its own, or runs a second pipeline, holds to it through its
   * exporter's limit (the OTLP exporters' `concurrencyLimit`).
   */
  readonly maxConcurrentExports?: number;
  /** Sampling ratio 0..1 for the "drop everything" outage variant. */
  readonly samplingRatio?: number;
  /**
   * The provider integration declares safe, tenant-correct correlation: a remote trace
   * reference the provider returns may be linked to `harness.run`. Default false (never link).
   */
  readonly remoteTraceLinks?: boolean;
  /** Thread-state bounds to use instead of the defaults (suites shrink them to test them). */
  readonly stateLimits?: Partial<StateLimits>;
}

export interface ToolAuthorization {
  /** May this principal's run with this agent invoke the tool? */
  mayInvoke(caller: Principal, agent: string, tool: string): Promise<boolean>;
  /** May this principal's run with this agent reach the network destination (host)? */
  mayReach(caller: Principal, agent: string, host: string): Promise<boolean>;
}

export interface Clock {
  now(): Promise<number>;
  /** Move the target's clock forward (retention tests). */
  advance(ms: number): Promise<void>;
}

/**
 * Fault injection a target exposes to the kit: gofail-style failpoints named after the
 * protocol steps they sit between (e.g. `state.commit.before`), armed with a term chain such
 * as `2*return("unavailable")->sleep(10)` (see the HTTP protocol's test controls).
 */
export interface Faults {
  setFailpoint(name: string, term: string): Promise<void>;
  clearFailpoints(): Promise<void>;
  /**
   * `processFaults`: send a real signal to a part — every sandbox worker process, or the
   * control plane. SIGKILL resolves once the part is gone; SIGSTOP/SIGCONT once delivered.
   */
  killPart?(part: ProcessPart, signal: ProcessSignal): Promise<void>;
  /**
   * `processFaults`: start the part again (killing it first if it still runs) on the same data
   * and address; resolves when it accepts work. A killed part also comes back on demand.
   */
  restartPart?(part: ProcessPart): Promise<void>;
  /**
   * `processFaults`: write a stale head for the binding, carrying `marker` in its payload, into
   * every worker's pod-local cache (live or dead). Restore must never select it.
   */
  poisonLocalCache?(bindingId: string, marker: string): Promise<void>;
  /** `processFaults`: OS process ids of the parts (so a kit can prove none is left orphaned). */
  processIds?(): Promise<{ readonly controlPlane: number; readonly workers: readonly number[] }>;
  /**
   * `networkFaults`: the Toxiproxy proxies the target's own links run through — the proxy's
   * client part dials the proxy, which forwards to the real peer — so the kit can add toxics.
   */
  networkLinks?(): Promise<NetworkLinks>;
}

/**
 * `storageInspection`: retention and deletion checked where data lives, not only through get and
 * search. The target declares every place it keeps memory data (store rows, search index,
 * write-ahead log, backups, caches…) and reports in which of them a body is still present.
 */
export interface StorageInspection {
  /**
   * First completes retention and deletion work already due (what the target would run on its
   * own schedule by now), then looks for `needle` (a word of a memory body, matched as UTF-8
   * bytes or text) in every declared location.
   */
  residue(needle: string): Promise<StorageResidue>;
}

export interface StorageResidue {
  /** Every place the target keeps memory data, as it names them (never empty). */
  readonly locations: readonly string[];
  /** The locations where the needle is still present. */
  readonly found: readonly string[];
}

/** Internal links of a target that can sit behind a Toxiproxy proxy. */
/**
 * The native harness ids (StateScope harness) the kit can run a certification with
 * (`smtc certify --harness`): what a target may declare in `Target.harnesses`, an HTTP target
 * in its manifest's `harnesses`.
 */
export const HARNESS_IDS = ['scripted', 'deepagents'] as const;
export type HarnessId = (typeof HARNESS_IDS)[number];

export const NETWORK_LINKS = ['worker-control-plane', 'control-plane-store'] as const;
export type NetworkLinkName = (typeof NETWORK_LINKS)[number];

export interface NetworkLinks {
  /** API URL of the Toxiproxy holding the proxies. */
  readonly toxiproxyUrl: string;
  readonly links: readonly { readonly link: NetworkLinkName; readonly proxy: string }[];
}

/** The processes of a target that process faults reach. */
export const PROCESS_PARTS = ['worker', 'control_plane'] as const;
export type ProcessPart = (typeof PROCESS_PARTS)[number];
export const PROCESS_SIGNALS = ['SIGKILL', 'SIGSTOP', 'SIGCONT'] as const;
export type ProcessSignal = (typeof PROCESS_SIGNALS)[number];

/**
 * Failpoints every target with the `failpoints` capability names the same way: one before and
 * one after each step of the commit protocol, in protocol order (suites crash at each of them).
 */
export const COMMIT_PROTOCOL_FAILPOINTS = [
  'state.load.before',
  'state.write.before',
  'state.write.after',
  'state.commit.before',
  'state.commit.after',
] as const;

/**
 * Failpoints before and after `mark_uncertain` and `reconcile`, named the same way, for a target
 * that declares the `reconciliationFailpoints` capability (without it, their clauses are not run).
 */
export const RECONCILIATION_FAILPOINTS = [
  'state.uncertain.before',
  'state.uncertain.after',
  'state.reconcile.before',
  'state.reconcile.after',
] as const;

export interface Target {
  readonly name: string;
  readonly capabilities: Capabilities;
  /**
   * The native harness ids (StateScope harness) this target runs, when it declares them: a run
   * of the kit with another harness (`smtc certify --harness`) reports its scenarios "not run".
   * Undeclared: every harness the kit can select is taken to be supported.
   */
  readonly harnesses?: readonly string[];
  readonly principals: Principals;
  readonly bindings: Bindings;
  /** The facade for one worker session; scopes other than the session's are rejected. */
  threadState(session: WorkerSession): ThreadStateStore;
  /** The thread-state bounds this target enforces (after any `options.stateLimits`). */
  readonly stateLimits?: StateLimits;
  memory(caller: Principal, agent: string): MemoryBroker;
  /** The memory write policy and bounds this target enforces (required with `memory`). */
  readonly memoryPolicy?: MemoryPolicy;
  readonly approvals: Approvals;
  readonly audit: Audit;
  readonly tools: ToolAuthorization;
  readonly runs?: Runs;
  readonly telemetry?: { health(): Promise<TelemetryHealth>; flush(): Promise<void> };
  readonly clock?: Clock;
  /** Present when the target can inject faults (declares the `failpoints` capability). */
  readonly faults?: Faults;
  /** Present with the `storageInspection` capability. */
  readonly storage?: StorageInspection;
}

/** Default export of a module target. */
export interface TargetModule {
  readonly name: string;
  create(env: HarnessEnv): Promise<Target>;
  destroy?(target: Target): Promise<void>;
  /**
   * The targets it creates share processes (e.g. instances of one running service): the kit
   * runs the suite files one at a time, so one suite's process faults never hit another's.
   */
  readonly serialSuites?: boolean;
}
