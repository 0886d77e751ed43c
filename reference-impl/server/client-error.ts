/**
 * Errors below the route handlers, answered in the protocol's error shape like every other:
 * Node's HTTP parser (bad framing, oversized headers, a request that took too long to arrive)
 * and fastify's routing (malformed URL). A client that went away gets nothing and is not
 * logged: an aborted request is the client's doing, not an internal error.
 */
import type { Socket } from 'node:net';
import { ContractError } from '../../contract/errors.js';
import { errorResponse } from '../../contract/http/error-protocol.js';

const CLIENT_GONE = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/** The client closed or reset the connection while its request was being read or answered. */
export function isClientAbort(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { code, message } = e as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && CLIENT_GONE.has(code)) || message === 'aborted';
}

/** The contract error for an HTTP parser error (code HPE_* or ERR_HTTP_*). */
export function parserError(code: unknown): ContractError {
  if (code === 'HPE_HEADER_OVERFLOW') return new ContractError('payload_too_large', 'request headers');
  // Too slow to arrive: the same request may well succeed when sent again.
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new ContractError('unavailable', 'the request took too long to arrive');
  return new ContractError('invalid_argument', 'the request is not valid HTTP');
}

/** fastify's clientErrorHandler: one protocol-shaped answer, then the connection is closed. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (isClientAbort(err) || socket.destroyed) {
    socket.destroy();
    return;
  }
  const { status, body } = errorResponse(parserError(err.code));
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} Error\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}
