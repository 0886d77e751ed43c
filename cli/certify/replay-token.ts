/**
 * One token to replay one failed property exactly: clause id, fast-check seed and path, and
 * the kit version (a path only means something to the same suite code). base64url JSON, so
 * it survives copy-paste from a terminal, JUnit or HTML report into `--replay`.
 */
import { z } from 'zod';
import { type Replay, ReplaySchema } from '../../fixtures/settings/run-settings.js';
import { UsageError } from './selection.js';

const TokenSchema = ReplaySchema.extend({ v: z.literal(1), kit: z.string().regex(/^[0-9A-Za-z.+-]{1,64}$/) });

export function encodeReplayToken(r: Replay, kit: string): string {
  const body = { v: 1, kit, ...r };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodeReplayToken(token: string, kit: string): Replay {
  const bad = (why: string) => new UsageError(`--replay: ${why}`);
  if (!/^[A-Za-z0-9_-]{1,20000}$/.test(token))
    throw bad('malformed token (expected the base64url token a failure printed)');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw bad('malformed token (not a replay token)');
  }
  const r = TokenSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw bad(`malformed token (${i?.path.join('.') || 'token'}: ${i?.message ?? 'invalid'})`);
  }
  if (r.data.kit !== kit) {
    throw bad(`token is from smtc ${r.data.kit}, this is smtc ${kit}: replay it with that version`);
  }
  const { v: _v, kit: _kit, ...replay } = r.data;
  return replay;
}
