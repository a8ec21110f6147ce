import { expect, it } from 'vitest';
import { getOfferedConnectors, getPublicOrigin, getTrustProxy, loadConfig } from './config';

it('lists every bad configuration key at once', () => {
  expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'nope', SEED_DEMO: 'maybe' })).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*SEED_DEMO/);
});

it('defaults to port 3000, ./data and demo data', () => {
  const config = loadConfig({});
  expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', SEED_DEMO: true, MODE: 'all' });
  expect(loadConfig({ SEED_DEMO: 'false', PORT: '8080' })).toMatchObject({ SEED_DEMO: false, PORT: 8080 });
});

it('reads TRUST_PROXY as a hop count or a list of proxies, never as "believe every hop"', () => {
  const read = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;
  expect(read('false')).toBe(false);
  expect(read('0')).toBe(false);
  expect(read('true')).toBe(1);
  expect(read('2')).toBe(2);
  expect(read('10.0.0.0/8, 127.0.0.1,::1 ,loopback')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'loopback']);
  expect(() => read('10.0.0.0/33')).toThrow(/TRUST_PROXY[\s\S]*10\.0\.0\.0\/33/);
  expect(() => read('proxy.example.com')).toThrow(/TRUST_PROXY/);
  expect(loadConfig({}).TRUST_PROXY).toBe(false);

  // A hop count trusts the socket's peer and the entries our own proxies appended (read right to left).
  const trust = getTrustProxy(loadConfig({ TRUST_PROXY: 'true' }));
  expect(typeof trust === 'function' && [trust('127.0.0.1', 0), trust('6.6.6.6', 1)]).toEqual([true, false]);
});

it("fixes the public origin at boot: PUBLIC_URL, else this server's port", () => {
  expect(getPublicOrigin(loadConfig({ PORT: '8080' }))).toBe('http://localhost:8080');
  expect(getPublicOrigin(loadConfig({ PUBLIC_URL: 'https://console.example.com/' }))).toBe('https://console.example.com');
});

it('refuses an ADMIN_PASSWORD of spaces', () => {
  expect(() => loadConfig({ ADMIN_PASSWORD: '        ' })).toThrow(/ADMIN_PASSWORD/);
  expect(loadConfig({ ADMIN_PASSWORD: 'long enough' }).ADMIN_PASSWORD).toBe('long enough');
});

it('asks for what the chosen WhatsApp connector needs, and nothing for the default simulator', () => {
  expect(loadConfig({}).WHATSAPP_CONNECTOR).toBe('simulator');
  expect(() => loadConfig({ WHATSAPP_CONNECTOR: 'baileys' })).toThrow(
    /WHATSAPP_CREDENTIALS_KEY: required when .*WHATSAPP_CONNECTOR=baileys/,
  );
  expect(() => loadConfig({ WHATSAPP_CONNECTOR: 'baileys', WHATSAPP_CREDENTIALS_KEY: 'abc' })).toThrow(/64 hex characters/);
  expect(loadConfig({ WHATSAPP_CONNECTOR: 'baileys', WHATSAPP_CREDENTIALS_KEY: 'ab'.repeat(32) }).WHATSAPP_CONNECTOR).toBe('baileys');
  const cloud = () => loadConfig({ WHATSAPP_CONNECTOR: 'cloud' });
  for (const key of ['WHATSAPP_CLOUD_ACCESS_TOKEN', 'WHATSAPP_CLOUD_APP_SECRET', 'WHATSAPP_CLOUD_VERIFY_TOKEN']) expect(cloud).toThrow(key);
});

it('offers the WhatsApp connectors WHATSAPP_CONNECTORS lists, or the one WHATSAPP_CONNECTOR names, and asks what each needs', () => {
  expect(getOfferedConnectors(loadConfig({}))).toEqual(['simulator']);
  expect(getOfferedConnectors(loadConfig({ WHATSAPP_CONNECTOR: 'baileys', WHATSAPP_CREDENTIALS_KEY: 'ab'.repeat(32) }))).toEqual([
    'baileys',
  ]);
  const cloud = { WHATSAPP_CLOUD_ACCESS_TOKEN: 't', WHATSAPP_CLOUD_APP_SECRET: 's', WHATSAPP_CLOUD_VERIFY_TOKEN: 'v' };
  expect(getOfferedConnectors(loadConfig({ WHATSAPP_CONNECTORS: 'simulator, cloud', ...cloud }))).toEqual(['simulator', 'cloud']);
  expect(() => loadConfig({ WHATSAPP_CONNECTORS: 'simulator,cloud' })).toThrow(
    /WHATSAPP_CLOUD_APP_SECRET: required when WHATSAPP_CONNECTORS offers cloud/,
  );
  expect(() => loadConfig({ WHATSAPP_CONNECTORS: 'simulator,telegram' })).toThrow(/WHATSAPP_CONNECTORS/);
});

it("keeps Redis's keys under df: unless REDIS_KEY_PREFIX says otherwise, and refuses a prefix with spaces or wildcards", () => {
  expect(loadConfig({}).REDIS_KEY_PREFIX).toBe('df:');
  expect(loadConfig({ REDIS_KEY_PREFIX: 'shop-a:' }).REDIS_KEY_PREFIX).toBe('shop-a:');
  for (const bad of ['a b', 'df*', 'x'.repeat(65)]) expect(() => loadConfig({ REDIS_KEY_PREFIX: bad })).toThrow(/REDIS_KEY_PREFIX/);
});

it('reads USD_RATES as units of each currency per USD, and refuses anything else', () => {
  expect(loadConfig({}).USD_RATES).toEqual({});
  expect(loadConfig({ USD_RATES: 'GHS=15.5, NGN=1600' }).USD_RATES).toEqual({ GHS: 15.5, NGN: 1600 });
  for (const bad of ['GHS', 'GHS=0', 'ghs=15', 'GHS=-1', 'GHS=abc', 'GHS=15;NGN=1600'])
    expect(() => loadConfig({ USD_RATES: bad }), bad).toThrow(/USD_RATES/);
});

it('keeps media in the database by default, and asks for every S3 setting with MEDIA_STORE=s3', () => {
  expect(loadConfig({}).MEDIA_STORE).toBe('database');
  const message = (() => {
    try {
      loadConfig({ MEDIA_STORE: 's3', MEDIA_S3_BUCKET: 'files' });
    } catch (err) {
      return (err as Error).message;
    }
  })();
  for (const key of ['MEDIA_S3_ENDPOINT', 'MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'])
    expect(message).toContain(`${key}: required when MEDIA_STORE=s3`);
  expect(message).not.toContain('MEDIA_S3_BUCKET');
  expect(() => loadConfig({ MEDIA_S3_BUCKET: 'Not_A_Bucket' })).toThrow(/MEDIA_S3_BUCKET: an S3 bucket name/);
});

it("maps with OpenStreetMap's tiles unless MAP_TILE_URL says otherwise (off: no map), and refuses a template it cannot read", () => {
  expect(loadConfig({}).MAP_TILE_URL).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
  expect(loadConfig({}).MAP_TILE_ATTRIBUTION).toContain('OpenStreetMap');
  expect(loadConfig({ MAP_TILE_URL: 'off' }).MAP_TILE_URL).toBe('');
  expect(loadConfig({ MAP_TILE_URL: '' }).MAP_TILE_URL).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
  expect(loadConfig({ MAP_TILE_URL: 'https://{s}.tiles.example.com/{z}/{x}/{y}.png' }).MAP_TILE_URL).toContain('{s}');
  for (const bad of ['tiles.example.com/{z}/{x}/{y}.png', 'https://tiles.example.com/{z}/{x}.png', 'javascript:{z}{x}{y}'])
    expect(() => loadConfig({ MAP_TILE_URL: bad }), bad).toThrow(/MAP_TILE_URL/);
});
