/**
 * Every failure the server answers with, as a contract error: ContractErrors keep their code;
 * the HTTP framework's own rejections map to the nearest registry code (oversized body →
 * `payload_too_large`, unknown route → `not_found`, any other client error →
 * `invalid_argument`); anything else is `internal` with no detail, logged without its message
 * (which could hold caller data) and without request headers (which hold tokens).
 */
import { ContractError, isContractError } from '../../contract/errors.js';
import { type ErrorResponse, errorResponse } from '../../contract/http/error-protocol.js';

export type ErrorLog = (entry: Record<string, unknown>) => void;

export const stderrLog: ErrorLog = (entry) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', component: 'smtc-http-server', ...entry })}\n`);
};

function frameworkStatus(e: unknown): number | null {
  if (typeof e !== 'object' || e === null) return null;
  const code = (e as { code?: unknown }).code;
  const status = (e as { statusCode?: unknown }).statusCode;
  if (typeof code === 'string' && code.startsWith('FST_') && typeof status === 'number') return status;
  return null;
}

export function toContractError(e: unknown, route: string, log: ErrorLog): ContractError {
  if (isContractError(e)) return e;
  const status = frameworkStatus(e);
  if (status === 413) return new ContractError('payload_too_large', 'request body');
  if (status === 404) return new ContractError('not_found');
  if (status !== null && status >= 400 && status < 500) {
    return new ContractError('invalid_argument', 'the request is not a valid protocol request');
  }
  const err = e instanceof Error ? e : null;
  log({
    route,
    error: err?.name ?? typeof e,
    // Stack frames only: the first line is the message, which may carry caller data.
    frames:
      err?.stack
        ?.split('\n')
        .slice(1, 8)
        .map((l) => l.trim()) ?? [],
  });
  return new ContractError('internal');
}

export function replyFor(e: unknown, route: string, log: ErrorLog): { status: number; body: ErrorResponse } {
  return errorResponse(toContractError(e, route, log));
}
