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

/** Run a backend operation, turning driver failures into `unavailable`; contract errors pass through. */
export async function storeCall<R>(op: () => Promise<R>): Promise<R> {
  try {
    return await op();
  } catch (e) {
    if (e instanceof MongoError) throw new ContractError('unavailable', 'the state store did not answer');
    throw e;
  }
}
