/**
 * Maps a principal bearer token to the served target's own Principal handle. The server is
 * generic over any Target: the identities are the target's `principals`, and the handle given
 * to the target is the target's own object, so it authenticates the caller exactly as it
 * would in-process. A token that is nobody's is `unauthenticated`.
 */
import { ContractError } from '../../contract/errors.js';
import type { HttpTargetManifest } from '../../contract/http/manifest.js';
import type { Principal, Principals } from '../../contract/principals.js';
import { sameToken } from './bearer-token.js';

export const PRINCIPAL_NAMES = ['alice', 'bob', 'carol', 'adminA', 'adminB', 'approverA'] as const;

export class PrincipalDirectory {
  private readonly all: readonly Principal[];

  constructor(principals: Principals) {
    this.all = [
      ...PRINCIPAL_NAMES.map((n) => principals[n]),
      ...(principals.internalService ? [principals.internalService] : []),
    ];
  }

  /** The principal the token authenticates; every candidate is compared (no early exit). */
  resolve(token: string | null): Principal {
    let found: Principal | null = null;
    if (token !== null) {
      for (const p of this.all) if (sameToken(token, p.credential) && found === null) found = p;
    }
    if (!found) throw new ContractError('unauthenticated');
    return found;
  }
}

/** The test identities with their tokens, as a manifest names them. */
export function manifestPrincipals(principals: Principals): NonNullable<HttpTargetManifest['principals']> {
  const wire = (p: Principal) => ({
    subject: p.subject,
    organization: p.organization,
    roles: [...p.roles],
    credential: p.credential,
  });
  return {
    ...(Object.fromEntries(PRINCIPAL_NAMES.map((n) => [n, wire(principals[n])])) as NonNullable<
      HttpTargetManifest['principals']
    >),
    ...(principals.internalService ? { internalService: wire(principals.internalService) } : {}),
  };
}
