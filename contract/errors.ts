/**
 * The contract's error registry. Every rejection a target makes is one of these codes; the
 * category is what suites assert on ("rejected as a scope problem"), the code is the precise
 * clause. Messages are fixed strings from this table: an implementation never puts caller-
 * supplied data (keys, payloads, ids) into them, so an error can't leak another tenant's data.
 */
export const ERROR_CATEGORIES = [
  'invalid_input',
  'unauthenticated',
  'authorization',
  'scope',
  'conflict',
  'limit',
  'fenced',
  'not_found',
  'unavailable',
  'internal',
] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

interface ErrorSpec {
  readonly category: ErrorCategory;
  readonly retryable: boolean;
  /** HTTP status used by the HTTP target protocol. */
  readonly status: number;
  readonly message: string;
}

export const ERROR_REGISTRY = {
  invalid_argument: { category: 'invalid_input', retryable: false, status: 400, message: 'an argument is invalid' },
  unknown_codec: { category: 'invalid_input', retryable: false, status: 400, message: 'the codec is not registered' },
  unauthenticated: {
    category: 'unauthenticated',
    retryable: false,
    status: 401,
    message: 'authentication is required',
  },
  forbidden: {
    category: 'authorization',
    retryable: false,
    status: 403,
    message: 'the caller may not perform this operation',
  },
  read_only_scope: {
    category: 'authorization',
    retryable: false,
    status: 403,
    message: 'this memory scope is read-only for the caller',
  },
  self_approval: {
    category: 'authorization',
    retryable: false,
    status: 403,
    message: 'a writer cannot approve their own write',
  },
  scope_violation: {
    category: 'scope',
    retryable: false,
    status: 403,
    message: 'the scope does not match the credential',
  },
  epoch_mismatch: {
    category: 'scope',
    retryable: false,
    status: 409,
    message: 'the epoch is not the current epoch of the binding',
  },
  codec_mismatch: { category: 'scope', retryable: false, status: 409, message: 'the codec does not match the binding' },
  stale_lease: {
    category: 'fenced',
    retryable: false,
    status: 409,
    message: 'the lease generation is no longer current',
  },
  fenced: { category: 'fenced', retryable: false, status: 409, message: 'the run is fenced' },
  revision_conflict: {
    category: 'conflict',
    retryable: true,
    status: 409,
    message: 'the expected revision is not the current revision',
  },
  idempotency_key_reuse: {
    category: 'conflict',
    retryable: false,
    status: 409,
    message: 'the idempotency key was used with different content',
  },
  pending_not_found: {
    category: 'not_found',
    retryable: false,
    status: 404,
    message: 'the pending state reference is unknown in this scope',
  },
  not_found: { category: 'not_found', retryable: false, status: 404, message: 'not found' },
  payload_too_large: {
    category: 'limit',
    retryable: false,
    status: 413,
    message: 'the payload exceeds the configured size bound',
  },
  entry_limit: { category: 'limit', retryable: false, status: 429, message: 'the entry count bound is reached' },
  rate_limited: { category: 'limit', retryable: true, status: 429, message: 'the write rate bound is exceeded' },
  unavailable: { category: 'unavailable', retryable: true, status: 503, message: 'a dependency is unavailable' },
  internal: { category: 'internal', retryable: true, status: 500, message: 'internal error' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

/** Wire form of an error (the HTTP protocol's `{ "error": … }` body). */
export interface ContractErrorBody {
  code: ErrorCode;
  category: ErrorCategory;
  retryable: boolean;
  message: string;
}

export class ContractError extends Error {
  readonly code: ErrorCode;
  readonly category: ErrorCategory;
  readonly retryable: boolean;
  /**
   * `detail` is a fixed, implementation-authored hint (e.g. "key too long"); it must never
   * contain caller-supplied data.
   */
  constructor(code: ErrorCode, detail?: string) {
    const spec = ERROR_REGISTRY[code];
    super(detail ? `${spec.message}: ${detail}` : spec.message);
    this.name = 'ContractError';
    this.code = code;
    this.category = spec.category;
    this.retryable = spec.retryable;
  }

  toBody(): ContractErrorBody {
    return { code: this.code, category: this.category, retryable: this.retryable, message: this.message };
  }

  static fromBody(body: ContractErrorBody): ContractError {
    const e = new ContractError(isErrorCode(body.code) ? body.code : 'internal');
    e.message = body.message;
    return e;
  }
}

export function isErrorCode(x: unknown): x is ErrorCode {
  return typeof x === 'string' && Object.hasOwn(ERROR_REGISTRY, x);
}

export function isContractError(e: unknown, code?: ErrorCode): e is ContractError {
  return e instanceof ContractError && (code === undefined || e.code === code);
}
