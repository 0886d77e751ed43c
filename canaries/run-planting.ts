/**
 * Plants canaries through every input a run has. Each input ("carrier") gets its own canary of
 * every forbidden category, so a hit names both what leaked and which way it came in:
 *
 *   request headers · prompt · tool arguments · emitted text · memory write · subagent prompt ·
 *   interrupt value · resume answer · seeded memory the run reads · provider answer text ·
 *   provider stderr · tool result · worker environment · checkpoint payload (committed by one
 *   run, loaded by the next)
 *
 * The suite wires the pieces into a target: headers and steps into `runs.start`, the replies
 * into the provider/tool stubs, the environment into `process.env` before the target starts —
 * and records each carrier as planted once the target really took it in.
 */
import type { MemoryProposal, MemoryScopeKind } from '../contract/memory.js';
import type { RunStep } from '../contract/runs.js';
import type { Canary, CanaryKit } from './canary-kit.js';
import { FORBIDDEN_CATEGORIES, type ForbiddenCategory } from './forbidden-categories.js';

export const CARRIERS = [
  'request.headers',
  'request.body:provider.prompt',
  'request.body:tool.args',
  'request.body:emit.text',
  'request.body:memory_write.content',
  'request.body:subagent.prompt',
  'request.body:interrupt.value',
  'request.resume.value',
  'memory.content(seeded, read by the run)',
  'provider.response:text',
  'provider.response:stderr',
  'tool.response:result',
  'worker.environment',
  'checkpoint.payload(committed by run 1, loaded by run 2)',
] as const;
export type Carrier = (typeof CARRIERS)[number];

/** Tool arguments of the three tool calls; the tool stub answers each with a different canary body. */
const READ_FILE_ARGS = '{"op":"read_file","path":"notes/quarterly-forecast.md"}';
const KUBECTL_ARGS = '{"op":"kubectl_get","kind":"Secret","name":"db-creds"}';
export const SEEDED_MEMORY_KEY = 'profile-notes';
export const WRITTEN_MEMORY_KEY = 'travel-notes';
export const ENV_PREFIX = 'SMTC_CANARY_';

export interface RunPlanting {
  /** Ingress headers of every planted run (untrusted client). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Run 1 on a fresh binding: every body carrier, provider + tools + memory + subagent,
   * checkpoint. `tool` is one the target authorizes (asked through its ToolAuthorization).
   */
  firstRun(tool: string): readonly RunStep[];
  /** Run 2 on the same binding: resumes from run 1's head, whose payload carries canaries. */
  readonly secondRun: readonly RunStep[];
  /** Run 3 on the same binding: stops at an interrupt whose value carries canaries … */
  readonly interruptRun: readonly RunStep[];
  /** … and is resumed with this answer. */
  readonly resumeValue: string;
  /** Memory the run reads back (put through the target's memory API before the runs). */
  readonly memorySeed: { readonly scope: MemoryScopeKind; readonly proposal: MemoryProposal };
  readonly providerReply: (prompt: string) => { text: string; stderr: string };
  /** Answers by arguments (the three calls use one authorized tool). */
  readonly toolReply: (tool: string, args: string) => { result: string };
  /** Variables to put into the worker's environment before the target is created. */
  readonly environment: Readonly<Record<string, string>>;
  /** Canary markers the outside must have seen, proving the planting reached the target. */
  /**
   * Record that a carrier's canaries really went into the target (call it once the input was
   * accepted: the run started, the stub was called, the checkpoint holds them …), so the
   * report lists only plantings that happened.
   */
  plant(carrier: Carrier): void;
  /** Carriers not (yet) recorded as planted. */
  unplanted(): readonly Carrier[];
  readonly mustReach: {
    readonly provider: readonly string[];
    readonly tool: readonly string[];
    readonly checkpoint: readonly string[];
  };
}

type Bundle = Record<ForbiddenCategory, Canary>;

export function plantRunInputs(kit: CanaryKit): RunPlanting {
  const bundles = {} as Record<Carrier, Bundle>;
  for (const carrier of CARRIERS) {
    const b = {} as Bundle;
    for (const cat of FORBIDDEN_CATEGORIES) {
      b[cat] = kit.mint(cat);
    }
    bundles[carrier] = b;
  }
  /** All of a carrier's canaries as one text, its own category first. */
  const text = (carrier: Carrier, lead?: ForbiddenCategory) => {
    const b = bundles[carrier];
    const order = lead ? [lead, ...FORBIDDEN_CATEGORIES.filter((c) => c !== lead)] : FORBIDDEN_CATEGORIES;
    return order.map((c) => `${c}: ${b[c].value}`).join('\n');
  };

  const h = bundles['request.headers'];
  const headers: Record<string, string> = {
    authorization: `Bearer ${h.bearer_token.value}`,
    cookie: h.cookie.value,
    'x-api-key': h.api_key.value,
    'proxy-authorization': h.authorization_header.value,
    'x-forwarded-user': h.subject.value,
    'x-forwarded-email': h.email.value,
    'x-user-name': h.person_name.value,
    // Baggage the schema does not allow (and one allowed key with an out-of-bounds value).
    baggage: `enduser.id=${encodeURIComponent(h.email.value)},smtc.tenant_tier=${h.api_key.marker}`,
    // Untrusted vendor trace state carrying a token.
    tracestate: `acme=${h.bearer_token.marker}`,
    // Everything else this carrier holds, as a client-side debug header would (URL-encoded).
    'x-client-context': encodeURIComponent(text('request.headers')),
  };

  const toolArgs = text('request.body:tool.args', 'tool_arguments');
  const firstRun = (tool: string): RunStep[] => [
    { type: 'provider', prompt: text('request.body:provider.prompt', 'prompt') },
    { type: 'tool', tool, args: toolArgs },
    { type: 'tool', tool, args: READ_FILE_ARGS },
    { type: 'tool', tool, args: KUBECTL_ARGS },
    { type: 'memory_read', scope: 'user', key: SEEDED_MEMORY_KEY },
    {
      type: 'memory_write',
      scope: 'user',
      proposal: {
        key: WRITTEN_MEMORY_KEY,
        kind: 'semantic',
        content: text('request.body:memory_write.content', 'memory_body'),
        contentType: 'text/plain',
      },
    },
    { type: 'subagent', steps: [{ type: 'provider', prompt: text('request.body:subagent.prompt', 'prompt') }] },
    { type: 'emit', text: text('request.body:emit.text', 'message_text') },
    { type: 'emit', text: text('checkpoint.payload(committed by run 1, loaded by run 2)', 'native_checkpoint') },
    { type: 'checkpoint' },
  ];
  const secondRun: RunStep[] = [{ type: 'provider', prompt: 'Continue the thread.' }, { type: 'checkpoint' }];
  const interruptRun: RunStep[] = [
    { type: 'interrupt', value: text('request.body:interrupt.value', 'message_text') },
    { type: 'emit', text: 'resumed' },
  ];

  const env: Record<string, string> = {};
  for (const cat of FORBIDDEN_CATEGORIES) {
    env[`${ENV_PREFIX}${cat.toUpperCase()}`] = bundles['worker.environment'][cat].value.replace(/\n/g, ' ');
  }
  // The variable an OpenTelemetry SDK's environment resource detector turns into resource labels.
  const e = bundles['worker.environment'];
  env.OTEL_RESOURCE_ATTRIBUTES = `enduser.id=${encodeURIComponent(e.email.value)},deployment.db=${encodeURIComponent(e.environment_variable.value)}`;

  const providerText = text('provider.response:text', 'reasoning');
  const providerStderr = text('provider.response:stderr', 'provider_stderr');
  const tr = bundles['tool.response:result'];
  const toolResults: Record<string, string> = {
    [READ_FILE_ARGS]: tr.file_body.value,
    [KUBECTL_ARGS]: tr.kubernetes_object.value,
  };
  const searchResult = text('tool.response:result', 'tool_result');

  const b = (carrier: Carrier) => Object.values(bundles[carrier]).map((c) => c.marker);
  const planted = new Set<Carrier>();
  return {
    plant(carrier) {
      for (const c of Object.values(bundles[carrier])) kit.plant(c, carrier);
      planted.add(carrier);
    },
    unplanted: () => CARRIERS.filter((c) => !planted.has(c)),
    headers,
    firstRun,
    secondRun,
    interruptRun,
    resumeValue: text('request.resume.value', 'message_text'),
    memorySeed: {
      scope: 'user',
      proposal: {
        key: SEEDED_MEMORY_KEY,
        kind: 'semantic',
        content: text('memory.content(seeded, read by the run)', 'memory_body'),
        contentType: 'text/plain',
      },
    },
    providerReply: () => ({ text: providerText, stderr: providerStderr }),
    toolReply: (_tool, args) => ({ result: toolResults[args] ?? searchResult }),
    environment: env,
    mustReach: {
      provider: [
        bundles['request.body:provider.prompt'].prompt.marker,
        bundles['request.body:subagent.prompt'].prompt.marker,
      ],
      tool: [bundles['request.body:tool.args'].tool_arguments.marker],
      checkpoint: b('checkpoint.payload(committed by run 1, loaded by run 2)').filter(
        (_m, i) => FORBIDDEN_CATEGORIES[i] !== 'person_name', // capitalised in the value
      ),
    },
  };
}
