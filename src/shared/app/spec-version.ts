import { appVersionSchema, type AppVersion } from './app-version.schema';
import { isPlainObject } from '../json';

/**
 * Versioned stored definitions. An app's definition outlives the code that wrote it: a deployed version is frozen in
 * `app_versions.definition`, an export file waits on someone's disk. Each says which shape it has in `specVersion`,
 * and reading it brings it forward through DEFINITION_MIGRATIONS, one pure step per version, before today's schema
 * (and its defaults) reads it: a field whose meaning changes never silently rewrites what was deployed or exported.
 * A definition stored before versions were stamped has no `specVersion`: it is version 0.
 */

/** The two parts every carrier of a definition has: the app's own fields, and its menus in order. */
export interface DefinitionParts {
  app: Record<string, unknown>;
  menus: unknown[];
}

/**
 * Brings a definition from version n to n + 1. Pure: plain JSON in, plain JSON out (no I/O, no clock), written
 * against the shape of version n, not today's types; a value it does not recognise is left for the schema to refuse.
 */
export type DefinitionMigration = (definition: DefinitionParts) => DefinitionParts;

/**
 * `DEFINITION_MIGRATIONS[n]` brings version n to n + 1; each has a fixture in `migrations/<n + 1>.fixtures.json`
 * (docs/architecture.md, "Versioned definitions", says how to add one).
 */
export const DEFINITION_MIGRATIONS: readonly DefinitionMigration[] = [
  // 0 -> 1: versions start being stamped. An unversioned definition already has version 1's shape.
  (definition) => definition,
  // 1 -> 2: a rule may test a contact field (`subject`) and use isSet / isEmpty. A version 1 rule has no subject and
  // tests the input, which is what a rule without one means in version 2. The number moves so that older code,
  // which would drop `subject` and test the input instead, refuses such a definition (docs/import-export.md).
  (definition) => definition,
  // 2 -> 3: a bot's menu may ask for a file or a location (`inputKind`, `mediaInput`), send files, pins and contact
  // cards (`attachments`), a link button (`linkButton`) or a location request (`requestLocation`), and a rule may test
  // a received file's field (`session.media.<menu>.<field>`). A version 2 menu has none: it asks for text and sends
  // its text alone, as a menu without them does in version 3. The number moves so that older code, which would drop
  // the new fields and take a photo menu for a text one, refuses a version 3 definition (docs/import-export.md).
  (definition) => definition,
  // 3 -> 4: a rule may enter a sub-flow (`subflow`) and a sub-flow's menu may Return; a version carries the sub-flows
  // it enters (`subflows`). A version 3 definition has none: its rules go to menus or end, as such rules do in
  // version 4. The number moves so that older code, which would drop `subflow` and go straight to the return menu,
  // refuses a version 4 definition (docs/sub-flows.md).
  (definition) => definition,
];

/** The shape this code writes and runs: one more than the versions it migrates from. */
export const SPEC_VERSION = DEFINITION_MIGRATIONS.length;

export const SPEC_VERSION_MESSAGES = {
  newer: (version: number) =>
    `This app definition is spec version ${version}, written by a newer Dialflow; this server reads up to spec version ${SPEC_VERSION}.`,
  invalid: (version: unknown) => `"specVersion" must be a whole number from 1 to ${SPEC_VERSION}, not ${JSON.stringify(version)}.`,
} as const;

/** A definition this code cannot read: from a newer version, or with a `specVersion` that is not a version. */
export class SpecVersionError extends Error {
  override readonly name = 'SpecVersionError';
}

/** The version a stored `specVersion` names: 0 when there is none; refused when newer than SPEC_VERSION or not a version. */
export function readSpecVersion(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new SpecVersionError(SPEC_VERSION_MESSAGES.invalid(value));
  if (value > SPEC_VERSION) throw new SpecVersionError(SPEC_VERSION_MESSAGES.newer(value));
  return value;
}

/** The definition at `from` brought to SPEC_VERSION, one migration after another. */
export function upgradeDefinition(definition: DefinitionParts, from: number): DefinitionParts {
  return DEFINITION_MIGRATIONS.slice(from).reduce((upgraded, migrate) => migrate(upgraded), definition);
}

/**
 * A stored version's definition (`app_versions.definition`) as the engine runs it: brought forward to SPEC_VERSION,
 * then read by today's schema. Throws SpecVersionError for a definition from a newer version, and the schema's
 * error for one that is not a definition.
 */
export function migrateDefinition(stored: unknown): AppVersion {
  if (!isPlainObject(stored)) return appVersionSchema.parse(stored);
  const { specVersion, menus, ...app } = stored;
  const from = readSpecVersion(specVersion);
  if (!Array.isArray(menus)) return appVersionSchema.parse(stored);
  const upgraded = upgradeDefinition({ app, menus }, from);
  return appVersionSchema.parse({ ...upgraded.app, menus: upgraded.menus });
}

/** A definition as it is stored: stamped with the version of its shape. */
export type StoredDefinition = AppVersion & { specVersion: number };

/** What every writer of `app_versions.definition` stores: the definition, stamped with SPEC_VERSION. */
export function stampDefinition(definition: AppVersion): StoredDefinition {
  return { specVersion: SPEC_VERSION, ...definition };
}
