import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createGuardedLookup,
  findAddressProblem,
  isForbiddenAddress,
  isHostAllowed,
  isRefusedAddressError,
  normalizeHost,
  resolveGuarded,
  splitHostPort,
} from './address-guard';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '255.255.255.255',
    '224.0.0.1',
    '198.18.0.1',
    '::1',
    '::',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('allows public %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it('allowPrivate lets loopback and private through but never metadata', () => {
    expect(findAddressProblem('127.0.0.1', { allowPrivate: true })).toBeNull();
    expect(findAddressProblem('10.1.1.1', { allowPrivate: true })).toBeNull();
    expect(findAddressProblem('169.254.169.254', { allowPrivate: true })).toBe('metadata');
    expect(findAddressProblem('fd00:ec2::254', { allowPrivate: true })).toBe('metadata');
    expect(findAddressProblem('::ffff:169.254.169.254', { allowPrivate: true })).toBe('metadata');
    expect(findAddressProblem('127.0.0.1', { allowPrivate: false })).toBe('loopback');
  });
});

describe('host forms', () => {
  it('normalises decimal, octal, hex and short IPv4 forms', () => {
    expect(normalizeHost('0177.0.0.1')).toBe('127.0.0.1');
    expect(normalizeHost('2130706433')).toBe('127.0.0.1');
    expect(normalizeHost('0x7f.1')).toBe('127.0.0.1');
    expect(normalizeHost('127.1')).toBe('127.0.0.1');
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('LocalHost.')).toBe('localhost');
    expect(normalizeHost('api.example.com')).toBe('api.example.com');
  });

  it('WHATWG URL already normalises them for http URLs', () => {
    expect(new URL('http://0177.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0x7f.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    // Not for other schemes (database URLs): there the guard's normalizeHost does it.
    expect(new URL('postgres://0177.0.0.1/db').hostname).toBe('0177.0.0.1');
  });

  it('matches allowHosts by host and port', () => {
    expect(splitHostPort('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(isHostAllowed(['127.0.0.1:3000'], '127.0.0.1', 3000)).toBe(true);
    expect(isHostAllowed(['127.0.0.1:3000'], '127.0.0.1', 3001)).toBe(false);
    expect(isHostAllowed(['127.0.0.1:3000'], '0177.0.0.1', 3000)).toBe(true);
    expect(isHostAllowed(['api.internal'], 'API.internal', 443)).toBe(true);
    expect(isHostAllowed(undefined, '127.0.0.1', 3000)).toBe(false);
  });
});

describe('guarded lookup', () => {
  const lookup = (host: string, all: boolean, rules: Parameters<typeof createGuardedLookup>[0]) =>
    new Promise<unknown>((resolve, reject) =>
      createGuardedLookup(rules)(host, { all }, (err, address) => (err ? reject(err) : resolve(address))),
    );

  it('refuses localhost with a clear message, in both lookup forms', async () => {
    await expect(lookup('localhost', false, { allowPrivate: false })).rejects.toThrow(/^Refused: localhost resolves to a private address/);
    await expect(lookup('localhost', true, { allowPrivate: false })).rejects.toSatisfy(isRefusedAddressError);
  });

  it('resolves localhost when private addresses are allowed', async () => {
    expect(await lookup('localhost', false, { allowPrivate: true })).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(Array.isArray(await lookup('localhost', true, { allowPrivate: true }))).toBe(true);
  });

  it('is what net.connect dials through: the connection is refused before a socket opens', async () => {
    const socket = net.connect({ host: 'localhost', port: 9, lookup: createGuardedLookup({ allowPrivate: false }) });
    const err = await new Promise<Error>((resolve) => socket.on('error', resolve));
    expect(err.message).toMatch(/^Refused: localhost resolves to a private address/);
  });

  it('resolveGuarded checks literals in any spelling without DNS', async () => {
    await expect(resolveGuarded('0177.0.0.1', 5432, { allowPrivate: false })).rejects.toThrow('Refused: 0177.0.0.1 is a private address (loopback)');
    await expect(resolveGuarded('2130706433', 5432, { allowPrivate: false })).rejects.toThrow(/Refused/);
    await expect(resolveGuarded('::1', 5432, { allowPrivate: false })).rejects.toThrow(/Refused/);
    expect(await resolveGuarded('127.0.0.1', 5432, { allowPrivate: false, allowHosts: ['127.0.0.1:5432'] })).toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolveGuarded('127.0.0.1', 5433, { allowPrivate: false, allowHosts: ['127.0.0.1:5432'] })).rejects.toThrow(/Refused/);
  });
});
