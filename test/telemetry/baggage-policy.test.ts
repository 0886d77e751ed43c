import { propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { acceptBaggage, outboundBaggage, withBaggage } from '../../reference-impl/telemetry/baggage-policy.js';

describe('baggage policy', () => {
  it('is empty by default', () => {
    expect(acceptBaggage(null)).toEqual({});
    expect(outboundBaggage(ROOT_CONTEXT)).toBeNull();
  });

  it('keeps only schema keys with valid, bounded values', () => {
    expect(
      acceptBaggage([
        'smtc.tenant_tier=gold;prop=1, user.email=alice%40example.com,session=abc,smtc.request_class=batch_2',
      ]),
    ).toEqual({ 'smtc.tenant_tier': 'gold', 'smtc.request_class': 'batch_2' });
  });

  it.each([
    ['value outside the pattern', 'smtc.tenant_tier=Gold'],
    ['value too long', `smtc.tenant_tier=${'a'.repeat(17)}`],
    ['undecodable value', 'smtc.tenant_tier=%E0%A4%A'],
    ['empty value', 'smtc.tenant_tier='],
    ['no "="', 'smtc.tenant_tier'],
  ])('drops a schema key with %s', (_case, header) => {
    expect(acceptBaggage([header])).toEqual({});
  });

  it('drops a key sent twice (ambiguous), even across headers', () => {
    expect(acceptBaggage(['smtc.tenant_tier=gold', 'smtc.tenant_tier=free'])).toEqual({});
  });

  it('drops everything when the header set is out of bounds', () => {
    expect(acceptBaggage([`smtc.tenant_tier=gold,${'x=1,'.repeat(3000)}`])).toEqual({});
    expect(
      acceptBaggage([`smtc.tenant_tier=gold,${Array.from({ length: 180 }, (_, i) => `k${i}=1`).join(',')}`]),
    ).toEqual({});
  });

  it('re-checks the schema on the way out', () => {
    const forged = propagation.setBaggage(
      ROOT_CONTEXT,
      propagation.createBaggage({ 'smtc.tenant_tier': { value: 'gold' }, secret: { value: 'hunter2' } }),
    );
    expect(outboundBaggage(forged)).toBe('smtc.tenant_tier=gold');
    expect(outboundBaggage(withBaggage(ROOT_CONTEXT, {}))).toBeNull();
  });
});
