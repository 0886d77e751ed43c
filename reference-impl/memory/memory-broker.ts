/**
 * The contract's MemoryBroker for one caller and agent. Every operation authenticates the
 * credential first (the Principal object's other fields are never trusted), authorizes the
 * scope, validates its arguments with typed errors, and audits what it refuses.
 */
import { ContractError, isContractError } from '../../contract/errors.js';
import {
  type AuditEntry,
  MEMORY_KINDS,
  type MemoryBroker,
  type MemoryKind,
  type MemoryQuery,
  type MemoryRecord,
  type MemoryScope,
  type MemoryScopeKind,
  type MemoryWriteOutcome,
} from '../../contract/memory.js';
import type { Principal } from '../../contract/principals.js';
import type { Identity } from '../identity/identity.js';
import { isWellFormedText } from '../platform/well-formed-text.js';
import { auditEntry } from './audit-log.js';
import { type Authorized, authorize, type MemoryOperation } from './authorize.js';
import { deleteRecord } from './delete-record.js';
import type { MemoryDeps } from './memory-deps.js';
import { MEMORY_BOUNDS, MEMORY_POLICY } from './memory-policy.js';
import { purgeExpired } from './purge-expired.js';
import { isLive, toMemoryRecord } from './stored-record.js';
import { keyProblem, validExpectedRevision } from './validate.js';
import { runWritePipeline } from './write-pipeline.js';

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

function scopeKindOf(scope: unknown): MemoryScopeKind | null {
  const k = (scope as { kind?: unknown } | null)?.kind;
  return k === 'user' || k === 'agent' || k === 'organization' ? k : null;
}

interface ValidQuery {
  readonly text: string;
  readonly kinds: readonly MemoryKind[] | null;
}

function validateQuery(query: unknown, limit: unknown): { q: ValidQuery; limit: number } {
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > MEMORY_POLICY.maxSearchLimit) {
    throw new ContractError('invalid_argument', 'limit out of range');
  }
  if (typeof query !== 'object' || query === null) throw new ContractError('invalid_argument', 'query');
  const q = query as Record<string, unknown>;
  const text = q.text;
  if (typeof text !== 'string' || text.trim().length === 0 || text.length > MEMORY_BOUNDS.maxQueryLength) {
    throw new ContractError('invalid_argument', 'query text');
  }
  if (!isWellFormedText(text) || CONTROL.test(text)) throw new ContractError('invalid_argument', 'query text');
  let kinds: MemoryKind[] | null = null;
  if (q.kinds !== undefined) {
    if (
      !Array.isArray(q.kinds) ||
      q.kinds.length > MEMORY_KINDS.length ||
      !q.kinds.every((k) => (MEMORY_KINDS as readonly unknown[]).includes(k))
    ) {
      throw new ContractError('invalid_argument', 'query kinds');
    }
    kinds = q.kinds as MemoryKind[];
  }
  return { q: { text, kinds }, limit };
}

export class ReferenceMemoryBroker implements MemoryBroker {
  constructor(
    private readonly deps: MemoryDeps,
    private readonly caller: Principal,
    private readonly agent: string,
  ) {}

  /** Authenticate, authorize and run `fn`; a refusal of an identified caller is audited. */
  private async guarded<T>(
    operation: AuditEntry['operation'],
    op: MemoryOperation,
    scope: unknown,
    key: unknown,
    fn: (a: Authorized) => T | Promise<T>,
  ): Promise<T> {
    const who = this.deps.auth.authenticate(this.caller);
    try {
      if (!this.deps.auth.isAgent(this.agent)) throw new ContractError('forbidden', 'unknown agent');
      const a = authorize(who, this.agent, scope, op, { sharedLearning: this.deps.sharedLearning });
      return await fn(a);
    } catch (e) {
      if (isContractError(e)) this.auditRefusal(who, operation, scope, key, e);
      throw e;
    }
  }

  private auditRefusal(
    who: Identity,
    operation: AuditEntry['operation'],
    scope: unknown,
    key: unknown,
    e: ContractError,
  ) {
    this.deps.store.appendAudit(
      auditEntry({
        org: who.organization,
        namespace: null,
        at: this.deps.clock.iso(),
        actor: who.principalId,
        operation,
        scope: scopeKindOf(scope),
        key: typeof key === 'string' && keyProblem(key) === null ? key : '',
        outcome: 'error',
        reasons: [e.code],
      }),
    );
  }

  async get(scope: MemoryScope, key: string): Promise<MemoryRecord | null> {
    return this.guarded('get', 'read', scope, key, (a) => {
      const problem = keyProblem(key);
      // Nothing can be stored under a protected key; anything else wrong with it is an argument error.
      if (problem === 'protected_skill') return null;
      if (problem) throw new ContractError('invalid_argument', 'key');
      purgeExpired(this.deps, a.namespace);
      const r = this.deps.store.get(a.namespace, key);
      return isLive(r, this.deps.clock.now()) ? toMemoryRecord(r) : null;
    });
  }

  async search(scope: MemoryScope, query: MemoryQuery, limit: number): Promise<readonly MemoryRecord[]> {
    return this.guarded('search', 'read', scope, undefined, (a) => {
      const v = validateQuery(query, limit);
      purgeExpired(this.deps, a.namespace);
      const now = this.deps.clock.now();
      // Authorization and namespace come first: only this namespace's index is ever consulted.
      const hits = this.deps.indexes.search(a.namespace, v.q.text);
      const out: MemoryRecord[] = [];
      const ranked = hits
        .map((h) => ({ ...h, score: Number(h.score.toPrecision(12)) }))
        .sort((x, y) => y.score - x.score || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
      for (const h of ranked) {
        if (out.length >= v.limit) break;
        const r = this.deps.store.get(a.namespace, h.key);
        if (!isLive(r, now)) continue;
        if (v.q.kinds && !v.q.kinds.includes(r.kind)) continue;
        out.push(toMemoryRecord(r, h.score));
      }
      return out;
    });
  }

  async put(scope: MemoryScope, proposal: unknown, expected_revision: number | null): Promise<MemoryWriteOutcome> {
    const key = (proposal as { key?: unknown } | null)?.key;
    return this.guarded('put', 'write', scope, key, async (a) => {
      const expected = validExpectedRevision(expected_revision, true);
      purgeExpired(this.deps, a.namespace);
      return runWritePipeline(this.deps, a, proposal, expected);
    });
  }

  async delete(scope: MemoryScope, key: string, expected_revision: number): Promise<MemoryWriteOutcome> {
    return this.guarded('delete', 'write', scope, key, (a) => {
      const expected = validExpectedRevision(expected_revision, false);
      const problem = keyProblem(key);
      if (problem) {
        this.deps.store.appendAudit(
          auditEntry({
            org: a.who.organization,
            namespace: a.namespace,
            at: this.deps.clock.iso(),
            actor: a.who.principalId,
            operation: 'delete',
            scope: a.scope,
            key: '',
            outcome: 'rejected',
            reasons: [problem],
          }),
        );
        return { status: 'rejected', reasons: [problem] } satisfies MemoryWriteOutcome;
      }
      purgeExpired(this.deps, a.namespace);
      return deleteRecord(this.deps, a, key, expected);
    });
  }
}
