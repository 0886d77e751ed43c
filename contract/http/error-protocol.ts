/**
 * The error body every non-2xx response carries: `{ "error": { code, category, retryable,
 * message } }`, with a code from the contract's registry and a fixed message that never
 * contains caller-supplied data.
 */
import { z } from 'zod';
import { type ContractError, ERROR_CATEGORIES, ERROR_REGISTRY, type ErrorCode } from '../errors.js';
import { named } from './protocol-registry.js';

const CODES = Object.keys(ERROR_REGISTRY) as [ErrorCode, ...ErrorCode[]];

export const ErrorBodySchema = named(
  'ErrorBody',
  z.object({
    code: z.enum(CODES),
    category: z.enum(ERROR_CATEGORIES),
    retryable: z.boolean(),
    message: z.string().max(1024),
  }),
  'A contract error: code from the registry, its category, whether a retry may succeed, a fixed message.',
);

export const ErrorResponseSchema = named('ErrorResponse', z.object({ error: ErrorBodySchema }));

export type ErrorResponse = z.output<typeof ErrorResponseSchema>;

/** The HTTP status and body of a contract error. */
export function errorResponse(e: ContractError): { status: number; body: ErrorResponse } {
  return { status: ERROR_REGISTRY[e.code].status, body: { error: e.toBody() } };
}

/** The status the registry assigns to a code. */
export function statusOf(code: ErrorCode): number {
  return ERROR_REGISTRY[code].status;
}
