/**
 * The test identities' credentials kept in the target's data directory (mode 0600), so a
 * control plane restarted on the same directory authenticates the same tokens — as a real
 * deployment keeps its identity provider across restarts. A missing or unreadable file means
 * fresh credentials, written for the next start.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Authenticator, type SavedCredentials } from './authenticator.js';

const FILE = 'credentials.json';

function load(dir: string): SavedCredentials | undefined {
  try {
    const raw = JSON.parse(readFileSync(path.join(dir, FILE), 'utf8')) as Partial<SavedCredentials>;
    if (typeof raw.anonymous !== 'string' || typeof raw.principals !== 'object' || raw.principals === null)
      return undefined;
    for (const v of Object.values(raw.principals)) if (typeof v !== 'string') return undefined;
    return raw as SavedCredentials;
  } catch {
    return undefined;
  }
}

export function persistedAuthenticator(dir: string): Authenticator {
  const saved = load(dir);
  const auth = new Authenticator(saved);
  if (!saved) writeFileSync(path.join(dir, FILE), JSON.stringify(auth.saved()), { mode: 0o600 });
  return auth;
}
