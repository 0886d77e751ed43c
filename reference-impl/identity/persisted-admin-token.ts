/**
 * The admin token kept in the target's data directory (mode 0600), so a control plane
 * restarted on the same directory accepts the same token and its manifest stays valid.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SAVED = /^smtc_admin_[A-Za-z0-9_-]{16,}$/;

export function persistedAdminToken(dataDir: string): string {
  const file = path.join(dataDir, 'admin-token');
  try {
    const saved = readFileSync(file, 'utf8').trim();
    if (SAVED.test(saved)) return saved;
  } catch {
    // first start
  }
  const token = `smtc_admin_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}
