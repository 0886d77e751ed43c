import type { Role } from '../../contract/principals.js';

/** Who the reference believes a caller is: derived from the credential only. */
export interface Identity {
  readonly principalId: string;
  readonly subject: string;
  readonly organization: string;
  readonly roles: readonly Role[];
}
