import { describe, expect, it } from 'vitest';
import { migrateAppExport } from '../api/app-transfer.schema';
import { appVersionSchema } from './app-version.schema';
import {
  DEFINITION_MIGRATIONS,
  migrateDefinition,
  readSpecVersion,
  SPEC_VERSION,
  SPEC_VERSION_MESSAGES,
  SpecVersionError,
  stampDefinition,
} from './spec-version';

/** A migration's fixture: stored definitions at the version before it, and what each becomes. */
interface MigrationFixture {
  from: number;
  to: number;
  about: string;
  cases: Array<{ name: string; stored: Record<string, unknown>; migrated: Record<string, unknown> }>;
}

const fixtures = import.meta.glob<MigrationFixture>('./migrations/*.fixtures.json', { eager: true, import: 'default' });
const fixtureOf = (to: number) => fixtures[`./migrations/${to}.fixtures.json`];

/** One migration alone, on a stored definition: the step its fixture is about. */
function applyMigration(to: number, stored: Record<string, unknown>): Record<string, unknown> {
  const { specVersion: _from, menus, ...app } = stored;
  const migrated = DEFINITION_MIGRATIONS[to - 1]!({ app, menus: menus as unknown[] });
  return { specVersion: to, ...migrated.app, menus: migrated.menus };
}

const versions = Array.from({ length: SPEC_VERSION }, (_, i) => i + 1);

describe('versioned definitions', () => {
  it('has a migration, and a fixture, for every version up to the current one', () => {
    expect(SPEC_VERSION).toBe(DEFINITION_MIGRATIONS.length);
    expect(Object.keys(fixtures).sort()).toEqual(versions.map((v) => `./migrations/${v}.fixtures.json`).sort());
  });

  describe.each(versions)('migration to version %i', (to) => {
    const fixture = fixtureOf(to)!;

    it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, { stored, migrated }) => {
      expect(fixture).toMatchObject({ from: to - 1, to });
      expect(readSpecVersion(stored.specVersion)).toBe(to - 1);
      const before = structuredClone(stored);
      expect(applyMigration(to, stored)).toEqual(migrated);
      // Pure: the stored definition is left as it was.
      expect(stored).toEqual(before);
      // The whole chain from the stored definition reads as the chain from its migrated form.
      expect(migrateDefinition(stored)).toEqual(migrateDefinition(migrated));
    });
  });

  it('reads an unversioned definition as version 1 unchanged: what the schema alone read before versions', () => {
    for (const { stored } of fixtureOf(1)!.cases) {
      expect(stored).not.toHaveProperty('specVersion');
      expect(migrateDefinition(stored)).toEqual(appVersionSchema.parse(stored));
    }
  });

  it('stamps what it stores with the current version, and reads it back as it was', () => {
    const definition = appVersionSchema.parse(fixtureOf(1)!.cases[0]!.stored);
    const stored = stampDefinition(definition);
    expect(stored.specVersion).toBe(SPEC_VERSION);
    expect(migrateDefinition(JSON.parse(JSON.stringify(stored)))).toEqual(definition);
  });

  it('refuses a definition from a newer version, and a specVersion that is not one, with a clear error', () => {
    const stored = fixtureOf(1)!.cases[1]!.stored;
    const newer = { ...stored, specVersion: SPEC_VERSION + 1 };
    expect(() => migrateDefinition(newer)).toThrow(SpecVersionError);
    expect(() => migrateDefinition(newer)).toThrow(SPEC_VERSION_MESSAGES.newer(SPEC_VERSION + 1));
    expect(SPEC_VERSION_MESSAGES.newer(SPEC_VERSION + 1)).toContain('written by a newer Dialflow');
    for (const bad of [0, -1, 1.5, '1', null, {}]) {
      expect(() => migrateDefinition({ ...stored, specVersion: bad })).toThrow(SPEC_VERSION_MESSAGES.invalid(bad));
    }
    // Not a definition at all: the schema says so, as before versions.
    expect(() => migrateDefinition('nonsense')).toThrow();
    expect(() => migrateDefinition({ appId: 'a', menus: 'none' })).toThrow();
  });

  it('brings an export file forward the same way, and stamps it', () => {
    const { appId: _appId, versionId: _versionId, menus, ...app } = fixtureOf(1)!.cases[1]!.stored;
    const file = { format: 'dialflow.app', version: 1, exportedAt: '', app, menus, secretsRemoved: [] };
    expect(migrateAppExport(file)).toEqual({ ...file, specVersion: SPEC_VERSION });
    expect(() => migrateAppExport({ ...file, specVersion: SPEC_VERSION + 1 })).toThrow(SpecVersionError);
    // A file without an app or menus is the schema's to refuse.
    expect(migrateAppExport({ ...file, menus: 'none' })).toEqual({ ...file, menus: 'none', specVersion: SPEC_VERSION });
  });
});
