import { expect, it } from 'vitest';
import { loadConfig } from './config';

it('lists every bad configuration key at once', () => {
  expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'nope', SEED_DEMO: 'maybe' })).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*SEED_DEMO/);
});

it('defaults to port 3000, ./data and demo data', () => {
  const config = loadConfig({});
  expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', SEED_DEMO: true, MODE: 'all' });
  expect(loadConfig({ SEED_DEMO: 'false', PORT: '8080' })).toMatchObject({ SEED_DEMO: false, PORT: 8080 });
});
