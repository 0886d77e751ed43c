/**
 * Validation of a run request before anything happens: types, sizes, counts and enum values.
 * Every violation is `invalid_argument` with a fixed detail (never the offending value).
 * Trace headers are validated for shape only: their content is the ingress policy's business
 * and a malformed or oversized trace header never fails a request.
 */
import { ContractError } from '../../../contract/errors.js';
import { MEMORY_SCOPE_KINDS } from '../../../contract/memory.js';
import type { RunRequest, RunStep } from '../../../contract/runs.js';

export const RUN_BOUNDS = {
  maxSteps: 256,
  maxDepth: 3,
  maxTextChars: 64 * 1024,
  maxIdChars: 128,
  maxKeyChars: 256,
  maxHeaderNames: 256,
  maxHeaderValues: 64,
} as const;

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const STEP_TYPES = new Set([
  'provider',
  'tool',
  'memory_read',
  'memory_write',
  'subagent',
  'emit',
  'checkpoint',
  'interrupt',
  'internal_call',
]);

function bad(detail: string): never {
  throw new ContractError('invalid_argument', detail);
}

function text(x: unknown, max: number, what: string): string {
  if (typeof x !== 'string' || x.length > max) bad(`${what} must be a string of at most ${max} characters`);
  return x;
}

function id(x: unknown, what: string): string {
  if (typeof x !== 'string' || x.length === 0 || x.length > RUN_BOUNDS.maxIdChars) bad(`${what} is invalid`);
  return x;
}

export function validateRunRequest(r: unknown): RunRequest {
  if (!r || typeof r !== 'object') bad('request must be an object');
  const req = r as Record<string, unknown>;
  id(req.bindingId, 'bindingId');
  id(req.agent, 'agent');
  if (!Array.isArray(req.steps)) bad('steps must be an array');
  const count = { n: 0 };
  validateSteps(req.steps, 0, count);
  if (req.headers !== undefined) validateHeaders(req.headers);
  // Ingress trust is the server's policy for the credential; a request that claims it is refused.
  if (req.trustedIngress !== undefined) bad('trustedIngress is not a request field');
  if (req.resume !== undefined) {
    const res = req.resume as Record<string, unknown> | null;
    if (!res || typeof res !== 'object') bad('resume must be an object');
    id(res.interruptId, 'resume.interruptId');
    text(res.value, RUN_BOUNDS.maxTextChars, 'resume.value');
  }
  return r as RunRequest;
}

function validateSteps(steps: unknown[], depth: number, count: { n: number }): void {
  if (depth > RUN_BOUNDS.maxDepth) bad('subagents nest too deep');
  for (const s of steps) {
    if (++count.n > RUN_BOUNDS.maxSteps) bad('too many steps');
    if (!s || typeof s !== 'object') bad('a step must be an object');
    const step = s as Record<string, unknown>;
    if (typeof step.type !== 'string' || !STEP_TYPES.has(step.type)) bad('unknown step type');
    const type = step.type as RunStep['type'];
    switch (type) {
      case 'provider':
        text(step.prompt, RUN_BOUNDS.maxTextChars, 'prompt');
        break;
      case 'tool':
        if (typeof step.tool !== 'string' || !TOOL_NAME.test(step.tool)) bad('tool name is invalid');
        text(step.args, RUN_BOUNDS.maxTextChars, 'tool args');
        break;
      case 'memory_read':
      case 'memory_write':
        if (!(MEMORY_SCOPE_KINDS as readonly unknown[]).includes(step.scope)) bad('unknown memory scope');
        if (type === 'memory_read') text(step.key, RUN_BOUNDS.maxKeyChars, 'memory key');
        // The proposal's content is validated by the memory broker's own pipeline.
        else if (!step.proposal || typeof step.proposal !== 'object') bad('memory proposal must be an object');
        break;
      case 'subagent':
        if (!Array.isArray(step.steps)) bad('subagent steps must be an array');
        for (const inner of step.steps as unknown[]) {
          const t = (inner as { type?: unknown } | null)?.type;
          if (t === 'checkpoint' || t === 'interrupt') bad('a subagent has no durable points');
        }
        validateSteps(step.steps as unknown[], depth + 1, count);
        break;
      case 'emit':
        text(step.text, RUN_BOUNDS.maxTextChars, 'emit text');
        break;
      case 'interrupt':
        text(step.value, RUN_BOUNDS.maxTextChars, 'interrupt value');
        break;
      case 'checkpoint':
      case 'internal_call':
        break;
    }
  }
}

function validateHeaders(h: unknown): void {
  if (!h || typeof h !== 'object' || Array.isArray(h)) bad('headers must be an object');
  const entries = Object.entries(h as Record<string, unknown>);
  if (entries.length > RUN_BOUNDS.maxHeaderNames) bad('too many headers');
  for (const [, v] of entries) {
    if (typeof v === 'string') continue;
    if (!Array.isArray(v) || v.length > RUN_BOUNDS.maxHeaderValues || v.some((x) => typeof x !== 'string')) {
      bad('a header value must be a string or an array of strings');
    }
  }
}
