/**
 * A target answered something the HTTP target protocol does not allow (not JSON, a body that
 * does not match the route's schema, an error without a contract error body, a stream cut
 * mid-line). Deliberately not a ContractError: garbage must never pass for a proper rejection.
 * Messages name the route and the schema paths that failed, never the received values.
 */
export class HttpProtocolError extends Error {
  override name = 'HttpProtocolError';
}
