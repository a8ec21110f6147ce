/**
 * The engine is pure (docs/architecture.md): it imports only src/shared and liquidjs, and touches no clock,
 * environment, network or timers of its own. The app model it shares with the browser uses no Node-only API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENGINE_DIR = import.meta.dirname;
const SHARED_DIR = join(import.meta.dirname, '../shared');
const APP_DIR = join(SHARED_DIR, 'app');

function readSources(dir: string): Array<[string, string]> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => [f, readFileSync(join(dir, f), 'utf8')]);
}

function findImports(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

describe('purity', () => {
  it('engine imports only shared, liquidjs and itself, and reads no clock or environment', () => {
    for (const [file, source] of readSources(ENGINE_DIR)) {
      for (const spec of findImports(source)) {
        expect(spec.startsWith('./') || spec.startsWith('../shared/') || spec === 'liquidjs', `${file} imports ${spec}`).toBe(true);
      }
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const banned of ['Date.now', 'new Date', 'process.', 'setTimeout', 'setInterval', 'fetch(', 'Math.random']) {
        expect(code.includes(banned), `${file} uses ${banned}`).toBe(false);
      }
    }
  });

  it('the shared app model imports no Node-only module', () => {
    for (const [file, source] of readSources(APP_DIR)) {
      for (const spec of findImports(source)) {
        const isShared = spec.startsWith('.') && resolve(APP_DIR, spec).startsWith(SHARED_DIR);
        expect(['zod', 'acorn', 're2js'].includes(spec) || isShared, `${file} imports ${spec}`).toBe(true);
      }
    }
  });
});
