import net from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createGuardedLookup,
  createPlatformServices,
  readPlatformService,
  findAddressProblem,
  isForbiddenAddress,
  isHostAllowed,
  findRefusedAddressError,
  isThisHostAddress,
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

  // Every way IPv6 carries an IPv4 address is judged as that IPv4 address (ipaddr.js calls ::7f00:1 unicast).
  it.each([
    ['::127.0.0.1', 'IPv4-compatible, as written'],
    ['[::127.0.0.1]', 'IPv4-compatible, bracketed'],
    ['::7f00:1', 'IPv4-compatible, as WHATWG URL writes it'],
    ['::10.0.0.1', 'IPv4-compatible private'],
    ['::a9fe:a9fe', 'IPv4-compatible metadata'],
    ['::ffff:0:127.0.0.1', 'SIIT'],
    ['64:ff9b::127.0.0.1', 'NAT64'],
    ['64:ff9b::a00:1', 'NAT64 private'],
    ['64:ff9b:1::7f00:1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:808:808::', '6to4 (a tunnel, refused whatever it carries)'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo'],
  ])('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it('judges NAT64 of a public address as that address (IPv6-only hosts reach IPv4 APIs through it)', () => {
    expect(isForbiddenAddress('64:ff9b::8.8.8.8')).toBe(false);
    expect(findAddressProblem('64:ff9b::7f00:1', { allowPrivate: false })).toBe('loopback');
    expect(findAddressProblem('::7f00:1', { allowPrivate: false })).toBe('loopback');
  });

  it('finds metadata inside every IPv4 embedding, even when private addresses are allowed', () => {
    for (const ip of [
      '::169.254.169.254',
      '64:ff9b::169.254.169.254',
      '::ffff:0:a9fe:a9fe',
      '2002:a9fe:a9fe::',
      '2001:0:a9fe:a9fe::5601:5601',
    ]) {
      expect(findAddressProblem(ip, { allowPrivate: true }), ip).toBe('metadata');
    }
  });

  it('counts every IPv6 form of loopback as this host', () => {
    for (const ip of ['::1', '127.0.0.2', '::7f00:1', '::ffff:127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::', '0.0.0.0', '::']) {
      expect(isThisHostAddress(ip), ip).toBe(true);
    }
    expect(isThisHostAddress('8.8.8.8')).toBe(false);
    expect(isThisHostAddress('::808:808')).toBe(false);
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
    expect(normalizeHost('::ffff:127.0.0.1')).toBe('127.0.0.1');
    // Read as the operating system reads it (ipaddr.js alone would make it ::ffff:7f00:1), and kept IPv6.
    expect(normalizeHost('[::127.0.0.1]')).toBe('::7f00:1');
    expect(normalizeHost('64:ff9b::127.0.0.1')).toBe('64:ff9b::7f00:1');
    // inet_pton takes no octal inside IPv6 (ipaddr.js would read 0177 as 177): not an address at all.
    expect(normalizeHost('::ffff:0177.0.0.1')).toBe('::ffff:0177.0.0.1');
    expect(isForbiddenAddress('::ffff:0177.0.0.1')).toBe(true);
    expect(normalizeHost('LocalHost.')).toBe('localhost');
    expect(normalizeHost('api.example.com')).toBe('api.example.com');
  });

  it('WHATWG URL already normalises them for http URLs', () => {
    expect(new URL('http://0177.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0x7f.0.0.1/').hostname).toBe('127.0.0.1');
    expect(new URL('http://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(new URL('http://[::127.0.0.1]/').hostname).toBe('[::7f00:1]');
    expect(() => new URL('http://[::ffff:127.1]/')).toThrow();
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
    await expect(lookup('localhost', true, { allowPrivate: false })).rejects.toSatisfy((err) => findRefusedAddressError(err) !== undefined);
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
    await expect(resolveGuarded('0177.0.0.1', 5432, { allowPrivate: false })).rejects.toThrow(
      'Refused: 0177.0.0.1 is a private address (loopback)',
    );
    await expect(resolveGuarded('2130706433', 5432, { allowPrivate: false })).rejects.toThrow(/Refused/);
    await expect(resolveGuarded('::1', 5432, { allowPrivate: false })).rejects.toThrow(/Refused/);
    await expect(resolveGuarded('[::127.0.0.1]', 5432, { allowPrivate: false })).rejects.toThrow(
      'Refused: [::127.0.0.1] is a private address (loopback)',
    );
    await expect(resolveGuarded('64:ff9b::a9fe:a9fe', 80, { allowPrivate: true })).rejects.toThrow(
      'Refused: 64:ff9b::a9fe:a9fe is a cloud metadata address',
    );
    expect(await resolveGuarded('127.0.0.1', 5432, { allowPrivate: false, allowHosts: ['127.0.0.1:5432'] })).toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
    await expect(resolveGuarded('127.0.0.1', 5433, { allowPrivate: false, allowHosts: ['127.0.0.1:5432'] })).rejects.toThrow(/Refused/);
  });
});

describe('platform services', () => {
  const database = { name: "the platform's own database server", host: '127.0.0.1', port: 5432 };

  it('match by address and port, every local spelling of this host being one host', async () => {
    const services = createPlatformServices([database]);
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1', '::7f00:1', '0.0.0.0']) {
      expect(await services.findService(address, 5432), address).toBe(database);
    }
    expect(await services.findService('127.0.0.1', 3306)).toBeUndefined();
    expect(await services.findService('8.8.8.8', 5432)).toBeUndefined();
  });

  it('reads where a service listens from its URL, as node-postgres and ioredis do', () => {
    expect(readPlatformService('db', 'postgres://u:p@DB.internal:6543/x', 5432)).toEqual({ name: 'db', host: 'db.internal', port: 6543 });
    expect(readPlatformService('db', 'postgres://u@localhost/x?host=10.0.0.5&port=5433', 5432)).toEqual({
      name: 'db',
      host: '10.0.0.5',
      port: 5433,
    });
    expect(readPlatformService('db', 'postgres:///dialflow?host=/var/run/postgresql', 5432)).toEqual({ name: 'db', host: '', port: 5432 });
    expect(readPlatformService('db', 'socket:/var/run/postgresql?db=dialflow', 5432)).toEqual({ name: 'db', host: '', port: 5432 });
    expect(readPlatformService('redis', 'rediss://:secret@[::1]:6380/0', 6379)).toEqual({ name: 'redis', host: '::1', port: 6380 });
  });

  it('a socket DATABASE_URL (no host) is this host', async () => {
    const services = createPlatformServices([{ ...database, host: '' }]);
    expect(await services.findService('127.0.0.1', 5432)).toMatchObject({ port: 5432 });
  });

  it('refuse the port when the service name does not resolve, rather than guess', async () => {
    const services = createPlatformServices([{ ...database, host: 'no-such-host.invalid' }]);
    await expect(services.findService('8.8.8.8', 5432)).rejects.toThrow(
      "Refused: port 5432 is where the platform's own database server listens, and its address (no-such-host.invalid) does not resolve now",
    );
    expect(await services.findService('8.8.8.8', 443)).toBeUndefined();
  });

  it('resolveGuarded refuses them whatever allowPrivate and allowHosts say', async () => {
    const platformServices = createPlatformServices([database]);
    await expect(
      resolveGuarded('localhost', 5432, { allowPrivate: true, allowHosts: ['localhost:5432'], platformServices }),
    ).rejects.toThrow(/^Refused: localhost:5432 \((127\.0\.0\.1|::1)\) is the platform's own database server$/);
    expect(await resolveGuarded('127.0.0.1', 5433, { allowPrivate: true, platformServices })).toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
  });
});
