/**
 * Every thread-state call is authorized here, from the worker's lease credential alone: the
 * StateScope a caller passes must equal the credential's scope in every field, and the
 * credential's epoch and lease generation must still be the binding's current ones. A scope
 * can name, at most, exactly what the lease already grants — it can never broaden it.
 */
import { ContractError } from '../../contract/errors.js';
import type { StateScope } from '../../contract/state.js';
import { validateScope } from './input-validation.js';
import { credentialHash } from './session-credential.js';
import type { BindingRow, SessionRow, StateBackend } from './state-backend.js';

export interface AuthorizedScope {
  readonly scope: StateScope;
  readonly binding: BindingRow;
  readonly session: SessionRow;
}

export class ScopeGuard {
  constructor(private readonly backend: StateBackend) {}

  async authorize(session: unknown, scope: unknown): Promise<AuthorizedScope> {
    const hash = credentialHash(
      typeof session === 'object' && session !== null ? (session as { credential?: unknown }).credential : undefined,
    );
    const held = hash === null ? null : await this.backend.findSession(hash);
    if (!held) throw new ContractError('unauthenticated');
    const s = validateScope(scope);
    const binding = await this.backend.getBinding(held.bindingId);
    if (!binding) throw new ContractError('unauthenticated');

    // The scope against the credential, field by field (contract order, one code per field).
    if (s.bindingId !== held.bindingId) throw new ContractError('scope_violation');
    if (s.environment !== binding.environment || s.harness !== binding.harness) {
      throw new ContractError('scope_violation');
    }
    if (s.epoch !== held.epoch) throw new ContractError('epoch_mismatch');
    if (s.codec !== binding.codec) throw new ContractError('codec_mismatch');
    if (s.leaseGeneration !== held.leaseGeneration) throw new ContractError('stale_lease');

    // The credential against the binding now: cleared since, or superseded by a newer lease.
    if (held.epoch !== binding.epoch) throw new ContractError('epoch_mismatch');
    if (held.leaseGeneration !== binding.leaseGeneration) throw new ContractError('stale_lease');
    return { scope: s, binding, session: held };
  }
}

/** Re-check, inside a transaction, that the authorized scope is still current (a lease may move mid-call). */
export function assertStillCurrent(scope: StateScope, binding: BindingRow): void {
  if (binding.epoch !== scope.epoch) throw new ContractError('epoch_mismatch');
  if (binding.leaseGeneration !== scope.leaseGeneration) throw new ContractError('stale_lease');
}
