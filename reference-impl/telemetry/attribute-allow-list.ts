/**
 * The attribute allow-list as the reference applies it, both when a span is written and again
 * at the export boundary. Values must be low-cardinality-shaped: numbers, booleans, or short
 * strings from a conservative alphabet, so a free-text value (a prompt, a path, an e-mail)
 * cannot ride on an allowed key.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { ALLOWED_ATTRIBUTES, ALLOWED_RESOURCE_ATTRIBUTES, type AllowedAttribute } from '../../contract/tracing.js';

const ALLOWED = new Set<string>(ALLOWED_ATTRIBUTES);
const ALLOWED_RESOURCE = new Set<string>(ALLOWED_RESOURCE_ATTRIBUTES);

/** Short identifiers, versions, enum values and hex digests; no spaces, '@', '=', quotes. */
const SAFE_STRING = /^[A-Za-z0-9._:/-]{0,64}$/;

export type AllowedAttributes = Partial<Record<AllowedAttribute, string | number | boolean>>;

export function isSafeAttributeValue(v: AttributeValue | undefined): v is string | number | boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'boolean') return true;
  return typeof v === 'string' && SAFE_STRING.test(v);
}

/** Keep only allow-listed keys with safe scalar values. */
export function filterAttributes(attrs: Attributes | undefined): Attributes {
  const out: Attributes = {};
  if (!attrs) return out;
  for (const [k, v] of Object.entries(attrs)) {
    if (ALLOWED.has(k) && isSafeAttributeValue(v)) out[k] = v;
  }
  return out;
}

/** Keep only allow-listed resource keys (service identity and SDK description). */
export function filterResourceAttributes(attrs: Attributes): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (ALLOWED_RESOURCE.has(k) && isSafeAttributeValue(v)) out[k] = v;
  }
  return out;
}
