/**
 * Bindings, epochs and leases. A binding belongs to the principal that opened it, identified
 * from its credential only; anyone else is told the binding does not exist. Clear starts a
 * new epoch; acquiring a lease bumps the generation, which fences every older session.
 */
import { randomBytes } from 'node:crypto';
import type { BindingInfo, BindingSpec, Bindings, WorkerSession } from '../../contract/bindings.js';
import { ContractError } from '../../contract/errors.js';
import type { Principal } from '../../contract/principals.js';
import type { Authenticator } from '../identity/authenticator.js';
import { validateBindingId, validateBindingSpec } from './input-validation.js';
import { credentialHash, mintCredential } from './session-credential.js';
import type { BindingRow, StateBackend } from './state-backend.js';
import { FIXED_BOUNDS } from './state-limits.js';

function info(b: BindingRow): BindingInfo {
  return {
    bindingId: b.bindingId,
    environment: b.environment,
    harness: b.harness,
    codec: b.codec,
    epoch: b.epoch,
    leaseGeneration: b.leaseGeneration,
  };
}

export class BindingsRegistry implements Bindings {
  constructor(
    private readonly backend: StateBackend,
    private readonly auth: Authenticator,
  ) {}

  async open(owner: Principal, spec: BindingSpec): Promise<BindingInfo> {
    const who = this.auth.authenticate(owner);
    const s = validateBindingSpec(spec);
    const row: BindingRow = {
      bindingId: `bnd_${randomBytes(16).toString('hex')}`,
      owner: who.principalId,
      environment: s.environment,
      harness: s.harness,
      codec: s.codec,
      epoch: 1,
      leaseGeneration: 0,
      entries: 0,
    };
    if (!(await this.backend.createBinding(row, FIXED_BOUNDS.maxBindingsPerOwner))) {
      throw new ContractError('entry_limit', 'bindings per owner');
    }
    return info(row);
  }

  async get(owner: Principal, bindingId: string): Promise<BindingInfo> {
    return info(await this.owned(owner, bindingId));
  }

  async clear(owner: Principal, bindingId: string): Promise<BindingInfo> {
    const b = await this.owned(owner, bindingId);
    const next = await this.backend.startEpoch(b.bindingId);
    if (!next) throw new ContractError('not_found');
    return info(next);
  }

  async acquireLease(owner: Principal, bindingId: string): Promise<WorkerSession> {
    const b = await this.owned(owner, bindingId);
    const credential = mintCredential();
    const next = await this.backend.grantLease(
      b.bindingId,
      credentialHash(credential)!,
      FIXED_BOUNDS.maxSessionsPerBinding,
    );
    if (!next) throw new ContractError('not_found');
    return {
      credential,
      scope: {
        bindingId: next.bindingId,
        environment: next.environment,
        harness: next.harness,
        epoch: next.epoch,
        codec: next.codec,
        leaseGeneration: next.leaseGeneration,
      },
    };
  }

  /** Whether `principalId` owns the binding (memory checks episodic references with it). */
  ownsBinding(principalId: string, bindingId: string): boolean {
    if (typeof principalId !== 'string' || typeof bindingId !== 'string' || bindingId.length > 256) return false;
    return this.backend.ownerOf(bindingId) === principalId;
  }

  /** The binding if the authenticated caller owns it; `not_found` otherwise, so ids can't be probed. */
  private async owned(owner: Principal, bindingId: unknown): Promise<BindingRow> {
    const who = this.auth.authenticate(owner);
    const id = validateBindingId(bindingId);
    const b = await this.backend.getBinding(id);
    if (!b || b.owner !== who.principalId) throw new ContractError('not_found');
    return b;
  }
}
