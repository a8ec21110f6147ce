import { describe, expect, it } from 'vitest';
import { checkGatewayAccess, createGatewayKey, isSameKey, parseSource, toSourceList } from './gateway-access';

describe('gateway access', () => {
  const key = createGatewayKey();

  it('makes 256-bit keys, URL-safe, and compares them whole', () => {
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createGatewayKey()).not.toBe(key);
    expect(isSameKey(key, key)).toBe(true);
    expect(isSameKey(key.slice(0, -1), key)).toBe(false);
    expect(isSameKey(`${key}x`, key)).toBe(false);
    expect(isSameKey('', key)).toBe(false);
  });

  it('reads addresses and CIDR ranges, and refuses anything else', () => {
    expect(parseSource('197.255.0.0/16')).toEqual({ address: '197.255.0.0', prefix: 16, type: 'ipv4' });
    expect(parseSource('10.0.0.7')).toEqual({ address: '10.0.0.7', prefix: 32, type: 'ipv4' });
    expect(parseSource('2c0f:fe38::/32')).toEqual({ address: '2c0f:fe38::', prefix: 32, type: 'ipv6' });
    for (const bad of ['10.0.0.0/33', '10.0.0.0/', '10.0.0.0/1/2', 'example.com', '10.0.0.0/-1', '::/129', '10.0.0.0/ 8', ''])
      expect(parseSource(bad), bad).toBeNull();
  });

  it('decides: a list refuses other addresses whatever they present; a wrong key is refused; legacy serves no key', () => {
    const sources = toSourceList(['10.9.0.0/16']);
    const rule = { key, sources: null, acceptsUnauthenticated: false };
    expect(checkGatewayAccess(rule, key, '1.2.3.4')).toEqual({ isAuthenticated: true });
    expect(checkGatewayAccess(rule, undefined, '1.2.3.4')).toEqual({ refused: 'unauthenticated' });
    expect(checkGatewayAccess(rule, 'wrong', '1.2.3.4')).toEqual({ refused: 'unauthenticated' });
    const legacy = { ...rule, acceptsUnauthenticated: true };
    expect(checkGatewayAccess(legacy, undefined, '1.2.3.4')).toEqual({ isAuthenticated: false });
    expect(checkGatewayAccess(legacy, 'wrong', '1.2.3.4')).toEqual({ refused: 'unauthenticated' });
    const listed = { ...rule, sources };
    expect(checkGatewayAccess(listed, key, '1.2.3.4')).toEqual({ refused: 'forbidden' });
    expect(checkGatewayAccess(listed, undefined, '10.9.200.1')).toEqual({ isAuthenticated: true });
    expect(checkGatewayAccess(listed, undefined, '::ffff:10.9.200.1')).toEqual({ isAuthenticated: true });
    expect(checkGatewayAccess(listed, 'wrong', '10.9.200.1')).toEqual({ refused: 'unauthenticated' });
    // An app with its key off: served, as traffic that proved nothing.
    expect(checkGatewayAccess({ key: null, sources: null, acceptsUnauthenticated: false }, undefined, '1.2.3.4')).toEqual({
      isAuthenticated: false,
    });
  });
});
