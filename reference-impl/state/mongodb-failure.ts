/**
 * How the MongoDB backend reads driver failures. A duplicate-key error is an answer (another
 * writer was first); any other driver error means the store could not be reached or did not
 * acknowledge, which callers see as the retryable `unavailable` — with a fixed message, since a
 * server's error text may quote the document it refused.
 */
import { MongoBulkWriteError, MongoError, MongoServerError } from 'mongodb';
import { ContractError } from '../../contract/errors.js';

const DUPLICATE_KEY = 11000;

export function isDuplicateKey(e: unknown): boolean {
  if (e instanceof MongoBulkWriteError) {
    const errs = Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors];
    return errs.length > 0 && errs.every((w) => w.code === DUPLICATE_KEY);
  }
  return e instanceof MongoServerError && e.code === DUPLICATE_KEY;
}

/**
 * A failure of the store or the way to it: any driver error, or a socket error the driver let
 * through as it is (e.g. EPIPE, "socket ended by the other party", when the server was killed).
 */
function isStoreFailure(e: unknown): boolean {
  if (e instanceof MongoError) return true;
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/** Run a backend operation, turning store failures into `unavailable`; other errors pass through. */
export async function storeCall<R>(op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (e) {
    if (isStoreFailure(e)) throw new ContractError('unavailable', 'the state store did not answer');
    throw e;
  }
}
