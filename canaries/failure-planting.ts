/**
 * Plants canaries in what a FAILING peer returns — the error paths of a run. A provider or a tool
 * that fails answers with its own error text: an HTTP 500 whose body carries the crashed
 * process's stderr or the tool's partial result, a garbled non-JSON reply. Implementations that
 * put a peer's error text into telemetry (a span status message, an exception event, an error
 * attribute) leak it: an HTTP client's "500: <body>" message, or `JSON.parse`, whose V8 message
 * quotes a short invalid input whole ("Unexpected token 'c', "cnry…" is not valid JSON").
 *
 * Each failure is one run whose only step calls the failing peer; each carries its own canary of
 * every forbidden category (the garbled short reply carries one marker: V8 quotes at most 20
 * characters whole), so a hit names the failure it came from. What a target records about a
 * failure of its own — an error category, the status code, a status message or exception event
 * in its own words — is never a hit: only canary bytes are.
 */
import type { RunStep } from '../contract/runs.js';
import type { RawReply } from '../fixtures/stubs/stub-protocol.js';
import type { Canary, CanaryKit } from './canary-kit.js';
import { FORBIDDEN_CATEGORIES, type ForbiddenCategory } from './forbidden-categories.js';

export type FailingPeer = 'provider' | 'tool';

export interface PeerFailure {
  /** The carrier the canaries are planted under, e.g. `provider.failure:http500-json`. */
  readonly carrier: string;
  readonly peer: FailingPeer;
  /** What the failing peer does, for messages. */
  readonly what: string;
  /** The stub's answer to every call while this failure runs. */
  readonly reply: RawReply;
  /** Every canary the reply carries. */
  readonly canaries: readonly Canary[];
  /** The one-step script of the run that meets this failure (`tool`: one the target authorizes). */
  steps(tool: string): readonly RunStep[];
}

const PROMPT = 'Summarise the release notes for the team.';
const TOOL_ARGS = '{"op":"search","query":"release notes"}';

export function plantPeerFailures(kit: CanaryKit): readonly PeerFailure[] {
  const failure = (
    peer: FailingPeer,
    name: string,
    what: string,
    make: () => { reply: RawReply; canaries: readonly Canary[] },
  ): PeerFailure => {
    const { reply, canaries } = make();
    return {
      carrier: `${peer}.failure:${name}`,
      peer,
      what,
      reply,
      canaries,
      steps: (tool) =>
        peer === 'provider' ? [{ type: 'provider', prompt: PROMPT }] : [{ type: 'tool', tool, args: TOOL_ARGS }],
    };
  };
  return [
    failure('provider', 'http500-json', 'answers HTTP 500 with a JSON error holding its stderr', () => {
      const b = kit.mintAll();
      return {
        reply: {
          status: 500,
          contentType: 'application/json',
          raw: JSON.stringify({
            error: { type: 'server_error', message: text(b, 'provider_stderr') },
            stderr: b.provider_stderr.value,
          }),
        },
        canaries: all(b),
      };
    }),
    failure('provider', 'http500-text', 'crashes: HTTP 500 with its stderr as a text body', () => {
      const b = kit.mintAll();
      return {
        reply: { status: 500, contentType: 'text/plain', raw: text(b, 'provider_stderr') },
        canaries: all(b),
      };
    }),
    failure('provider', 'garbled-short', 'answers 200 with a short non-JSON reply (JSON.parse quotes it)', () => {
      const c = kit.mint('provider_stderr');
      return { reply: { status: 200, contentType: 'application/json', raw: c.marker }, canaries: [c] };
    }),
    failure('tool', 'http500-json', 'answers HTTP 500 with a JSON error holding its partial result', () => {
      const b = kit.mintAll();
      return {
        reply: {
          status: 500,
          contentType: 'application/json',
          raw: JSON.stringify({ error: text(b, 'tool_result'), partial: b.tool_result.value }),
        },
        canaries: all(b),
      };
    }),
    failure('tool', 'garbled-short', 'answers 200 with a short non-JSON reply (JSON.parse quotes it)', () => {
      const c = kit.mint('tool_result');
      return { reply: { status: 200, contentType: 'application/json', raw: c.marker }, canaries: [c] };
    }),
    failure('tool', 'garbled-long', 'answers 200 with an HTML page instead of JSON', () => {
      const b = kit.mintAll();
      return {
        reply: {
          status: 200,
          contentType: 'application/json',
          raw: `<!doctype html><html><body><h1>Internal Server Error</h1><pre>${text(b, 'tool_result')}</pre></body></html>`,
        },
        canaries: all(b),
      };
    }),
  ];
}

type Bundle = Record<ForbiddenCategory, Canary>;

function all(b: Bundle): readonly Canary[] {
  return Object.values(b);
}

/** All of a bundle's canaries as one text, `lead` first. */
function text(b: Bundle, lead: ForbiddenCategory): string {
  return [lead, ...FORBIDDEN_CATEGORIES.filter((c) => c !== lead)].map((c) => `${c}: ${b[c].value}`).join('\n');
}
