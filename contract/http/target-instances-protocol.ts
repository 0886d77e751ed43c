/**
 * Fresh target instances, a test control: `POST /_smtc/targets` is `TargetModule.create(env)`
 * over HTTP. A running service cannot be re-pointed at each suite's collector and stubs, given
 * each suite's options, or emptied between properties; a service that serves this control
 * answers with a new, isolated target (its own store, identities, tokens and telemetry
 * pipeline) under `{baseUrl}/_smtc/targets/{id}`, speaking the whole protocol there.
 * `DELETE /_smtc/targets/{id}` is `destroy`. Like every test control: admin token only, and
 * only when the server's test controls are enabled. An instance outlives a restart of the
 * server on the same data until it is deleted.
 */
import { z } from 'zod';
import type { TargetOptions } from '../target.js';
import { CapabilitiesSchema } from './info-protocol.js';
import { ManifestPrincipalsSchema } from './manifest.js';
import { named } from './protocol-registry.js';
import type { SameKeys } from './type-checks.js';

/** Instance ids: short, URL-safe, minted by the server. */
export const INSTANCE_ID = /^[A-Za-z0-9_-]{8,64}$/;

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2048);
const Bound = z.int().min(1).max(1_000_000_000);

/** The TargetOptions a suite asks for (contract/target.ts), as they cross the wire. */
export const TargetOptionsSchema = named(
  'TargetOptions',
  z.strictObject({
    sharedLearning: z.boolean().optional(),
    exportTimeoutMs: Bound.optional(),
    maxQueueSize: Bound.optional(),
    maxConcurrentExports: Bound.optional(),
    samplingRatio: z.number().min(0).max(1).optional(),
    remoteTraceLinks: z.boolean().optional(),
    stateLimits: z
      .strictObject({
        maxPayloadBytes: Bound.optional(),
        maxPendingEntries: Bound.optional(),
        maxWritesPerSecond: Bound.optional(),
      })
      .optional(),
  }),
  'Per-target options a suite asks for; a target honours those it supports.',
);

/** The URL fields of a target env, with the command-line flag each has on the reference's servers. */
export const TARGET_ENV_URLS = {
  collectorUrl: '--collector-url',
  providerUrl: '--provider-url',
  toolUrl: '--tool-url',
  trustedServiceUrl: '--trusted-service-url',
  toxiproxyUrl: '--toxiproxy-url',
} as const;
export type TargetEnvUrl = keyof typeof TARGET_ENV_URLS;

/** A HarnessEnv without its temp dir (the server keeps its instances' data itself). */
export const TargetEnvSchema = named(
  'TargetEnv',
  z.strictObject({
    collectorUrl: HttpUrl.optional(),
    providerUrl: HttpUrl.optional(),
    toolUrl: HttpUrl.optional(),
    trustedServiceUrl: HttpUrl.optional(),
    toxiproxyUrl: HttpUrl.optional(),
    options: TargetOptionsSchema.optional(),
  }),
  'What the kit gives a fresh target: its OTLP/HTTP traces URL, stub URLs, the Toxiproxy for its internal links, and options.',
);

export const TargetInstanceParams = named(
  'TargetInstanceParams',
  z.strictObject({ id: z.string().regex(INSTANCE_ID) }),
);

export const TargetInstanceSchema = named(
  'TargetInstance',
  z.object({
    id: z.string().regex(INSTANCE_ID),
    /** Path of the instance below the server's base URL (`/_smtc/targets/{id}`). */
    path: z.string(),
    name: z.string(),
    principals: ManifestPrincipalsSchema,
    agents: z.tuple([z.string(), z.string()]),
    anonymousCredential: z.string(),
    /** Admin token of the instance's own admin and test-control routes. */
    adminToken: z.string(),
    capabilities: CapabilitiesSchema,
  }),
  'A fresh isolated target: where it answers, its test identities and tokens, what it supports.',
);

export function instancePath(id: string): string {
  return `/_smtc/targets/${id}`;
}

// The wire form decodes to exactly the contract's TargetOptions (a new option fails tsc here).
type _OptionsFit = z.output<typeof TargetOptionsSchema> extends TargetOptions ? true : false;
const _optionsFit: _OptionsFit = true;
const _optionKeys: SameKeys<TargetOptions, z.output<typeof TargetOptionsSchema>> = true;
void [_optionsFit, _optionKeys];
