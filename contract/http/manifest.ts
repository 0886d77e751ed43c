/**
 * The manifest of an HTTP target: where it is, the test identities and their tokens, what it
 * supports (capabilities, native harnesses), where it exports telemetry, and — when it runs locally — how to start it per
 * certification (spawn mode), kill or restart it, and the Toxiproxy proxies in front of its
 * dependencies. `parseManifest` reports every problem with its location
 * (`manifest.principals.alice.credential: expected string`), never the offending value.
 *
 * Spawn mode: `process.start.command` is an argv template. Placeholders, replaced per
 * `create(env)`: {port} (a free loopback port), {dataDir} (the env's fresh temp dir),
 * {collectorUrl} {providerUrl} {toolUrl} {trustedServiceUrl} (the env's URLs, empty when
 * unset), {envFile} (a JSON file holding the whole HarnessEnv), {manifestOut} (a path where
 * the started process writes its own manifest: its base URL and freshly minted tokens). The
 * process must print `{"ready":true,"url":"http://127.0.0.1:PORT"}` as one stdout line.
 */
import { z } from 'zod';
import { HARNESS_IDS, NETWORK_LINKS } from '../target.js';
import { CapabilitiesSchema } from './info-protocol.js';

const Token = z.string().min(1).max(4096);
const LoopbackOrAnyUrl = z.url({ protocol: /^https?$/ });

export const ManifestPrincipalSchema = z.strictObject({
  subject: z.string().min(1),
  organization: z.string().min(1),
  roles: z.array(z.enum(['user', 'application', 'admin', 'approver'])).min(1),
  credential: Token,
});

const PRINCIPAL_NAMES = ['alice', 'bob', 'carol', 'adminA', 'adminB', 'approverA'] as const;

export const ManifestPrincipalsSchema = z.strictObject({
  ...(Object.fromEntries(PRINCIPAL_NAMES.map((n) => [n, ManifestPrincipalSchema])) as Record<
    (typeof PRINCIPAL_NAMES)[number],
    typeof ManifestPrincipalSchema
  >),
  /**
   * A trusted internal service: the target's server-side ingress policy continues the trace
   * context of runs this credential starts (Principals.internalService). Omitted when the
   * target trusts no caller's context.
   */
  internalService: ManifestPrincipalSchema.optional(),
});

const Command = z.array(z.string().max(8192)).min(1).max(256);

export const ManifestProcessSchema = z.strictObject({
  /** argv template that starts a fresh target (spawn mode); placeholders listed above. */
  start: z
    .strictObject({
      command: Command,
      cwd: z.string().optional(),
      env: z.record(z.string(), z.string()).optional(),
      /** How long to wait for the ready line. */
      readyTimeoutMs: z.int().min(100).max(600_000).optional(),
    })
    .optional(),
  /** Commands for process-fault scenarios on a target that runs elsewhere (argv, no shell). */
  kill: Command.optional(),
  restart: Command.optional(),
});

export const ToxiproxyProxySchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/),
  /** host:port the dependent part connects to. */
  listen: z.string().min(3),
  /** host:port of the real dependency. */
  upstream: z.string().min(3),
  /** Which link the proxy sits on (the kit adds toxics to the target's internal links). */
  link: z.enum([...NETWORK_LINKS, 'target-collector', 'other']),
});

export const HttpTargetManifestSchema = z
  .strictObject({
    manifestVersion: z.literal(1),
    name: z.string().min(1).max(200),
    /** Base URL of the running target; optional in spawn mode (the ready line gives it). */
    baseUrl: LoopbackOrAnyUrl.optional(),
    /** Test identities; optional in spawn mode when the start command writes {manifestOut}. */
    principals: ManifestPrincipalsSchema.optional(),
    agents: z.tuple([z.string().min(1), z.string().min(1)]).optional(),
    /** A credential that authenticates nobody (generated when omitted). */
    anonymousCredential: Token.optional(),
    /** Bearer token of the admin/test-control routes. */
    adminToken: Token.optional(),
    /** Capabilities the owner declares; each is checked against what the target reports. */
    capabilities: z.strictObject(CapabilitiesSchema.shape),
    /**
     * The native harnesses the target runs (`smtc certify --harness`); a run with another one
     * reports its scenarios "not run". Omitted: what the target's `/v1/info` declares, and when
     * that declares none, every harness. Each is checked against what the target reports.
     */
    harnesses: z.array(z.enum(HARNESS_IDS)).optional(),
    /** Where the target exports telemetry: the OTLP/HTTP traces URL it was started with. */
    telemetry: z.strictObject({ collectorUrl: LoopbackOrAnyUrl.optional() }).optional(),
    /** The stub URLs the target was started with (static mode). */
    env: z
      .strictObject({
        providerUrl: LoopbackOrAnyUrl.optional(),
        toolUrl: LoopbackOrAnyUrl.optional(),
        trustedServiceUrl: LoopbackOrAnyUrl.optional(),
      })
      .optional(),
    timeouts: z
      .strictObject({
        /** Bound on one ordinary call. */
        requestMs: z.int().min(100).max(600_000).optional(),
        /** Bound on one run (the whole NDJSON stream). */
        runMs: z.int().min(100).max(600_000).optional(),
      })
      .optional(),
    process: ManifestProcessSchema.optional(),
    toxiproxy: z
      .strictObject({ url: LoopbackOrAnyUrl.optional(), proxies: z.array(ToxiproxyProxySchema).max(64) })
      .optional(),
  })
  .superRefine((m, ctx) => {
    const harnesses = m.harnesses ?? [];
    // (Sizes are checked here, not on the array: zod would also apply them to a non-array.)
    if (m.harnesses?.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['harnesses'], message: 'lists no harness (omit it to declare none)' });
    }
    harnesses.forEach((h, i) => {
      if (harnesses.indexOf(h) !== i) ctx.addIssue({ code: 'custom', path: ['harnesses', i], message: 'listed twice' });
    });
    const spawn = m.process?.start !== undefined;
    if (!spawn && m.baseUrl === undefined) {
      ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'required unless process.start is given' });
    }
    const writesManifest = m.process?.start?.command.some((a) => a.includes('{manifestOut}')) ?? false;
    if (m.principals === undefined && !writesManifest) {
      ctx.addIssue({
        code: 'custom',
        path: ['principals'],
        message: 'required unless process.start.command writes {manifestOut}',
      });
    }
  });

export type HttpTargetManifest = z.output<typeof HttpTargetManifestSchema>;
export type ManifestPrincipal = z.output<typeof ManifestPrincipalSchema>;

export class ManifestError extends Error {
  override name = 'ManifestError';
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid manifest ${source}:\n  ${problems.join('\n  ')}`);
  }
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      // zod's own messages for formats, sizes and ranges name the rule, never the input.
      return issue.message;
  }
}

function location(path: readonly PropertyKey[]): string {
  let out = 'manifest';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${String(p)}`;
  return out;
}

/** Validate a parsed manifest; throws ManifestError listing every problem with its location. */
export function parseManifest(json: unknown, source = 'manifest'): HttpTargetManifest {
  const r = HttpTargetManifestSchema.safeParse(json);
  if (r.success) return r.data;
  throw new ManifestError(
    source,
    r.error.issues.map((i) => `${location(i.path)}: ${describe(i)}`),
  );
}
