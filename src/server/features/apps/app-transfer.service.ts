import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { z } from 'zod';
import { apps, customActions, menus } from '../../../db/schema';
import { lintApp } from '../../../engine';
import {
  APP_EXPORT_FORMAT,
  APP_EXPORT_VERSION,
  APP_IMPORT_MAX_DEPTH,
  APP_TRANSFER_MESSAGES,
  appExportSchema,
  exportedMenuSchema,
  migrateAppExport,
  type AppExport,
  type ExportedMenu,
  type ImportAppBody,
  type ImportProblem,
} from '../../../shared/api/app-transfer.schema';
import { findDialStringProblem, withDialStringClaim } from './app-dial-strings';
import { removeSecrets } from './app-export-secrets';
import { APP_COUNTRIES, APP_MESSAGES, resolveAppShortcode, type App } from '../../../shared/api/apps.schema';
import {
  appVersionSchema,
  createMenuRefIndex,
  readSpecVersion,
  SPEC_VERSION,
  SpecVersionError,
  validateMenu,
  type Menu,
  type SubflowVersion,
} from '../../../shared/app';
import { MAX_MENUS_PER_APP } from '../../../shared/billing/plans';
import { LANGUAGE_MESSAGES, listAppLanguages, type AppLanguages } from '../../../shared/app/languages';
import { invalid } from '../../../shared/errors';
import { isUuid } from '../../../shared/ids';
import { isPlainObject } from '../../../shared/json';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../core/auth-user';
import { checkAppLimit, checkImportLimits, checkMenuLimit } from '../billing/plan-limits';
import { toMenuRowValues } from '../menus/menus.service';
import { getDraftVersion, SUBFLOW_CHANNEL, toGatewayConnections } from '../../core/app-versions';
import { checkSubflowLimit } from '../subflows/subflows.service';
import { createRenderAllowance, DEPLOY_LINT_RENDER_MS } from '../../core/render-shares';
import { getApp } from './apps.service';
import { createAppId, checkCanBuildApps, checkIsUssdApp, getOwnedApp } from '../../core/app-access';

/**
 * The app as one file: its settings and its draft menus in order, with every secret blanked (passwords,
 * credential headers). Gateway credentials, API keys and payment settings belong to the account, never to the
 * app, so they are not in it to begin with. Only the app's builder (or an admin) may export it.
 */
export async function exportApp(ctx: AppContext, user: AuthUser, appId: string): Promise<AppExport> {
  const app = await getOwnedApp(ctx, user, appId);
  checkIsUssdApp(app);
  const draft = await getDraftVersion(ctx.db, app);
  const secretsRemoved: string[] = [];
  return {
    format: APP_EXPORT_FORMAT,
    version: APP_EXPORT_VERSION,
    specVersion: SPEC_VERSION,
    exportedAt: ctx.now().toISOString(),
    app: {
      appName: app.appName,
      description: app.description,
      country: app.country,
      connectionMode: app.connectionMode === 'new-shortcode' ? 'new-shortcode' : 'existing-shortcode',
      useTemplateTag: app.useTemplateTag,
      shortCode: app.shortCode,
      baseShortCode: app.baseShortCode,
      customShortCode: app.customShortCode,
      screenLimit: app.screenLimit,
      ...(draft.languages ? { languages: draft.languages } : {}),
      gatewayConnections: toGatewayConnections(app),
    },
    menus: draft.menus.map((menu, i) => removeSecrets(toExportedMenu(menu), `menus.${i}`, secretsRemoved)),
    // Each sub-flow its rules enter, as its draft: an import makes it a sub-flow of the importing account.
    subflows: (draft.subflows ?? []).map((subflow, s) => ({
      id: subflow.id,
      name: subflow.name,
      inputs: subflow.inputs,
      outputs: subflow.outputs,
      // Its first menu first: an import takes the first menu of a list as the first.
      menus: [...subflow.menus]
        .sort((a, b) => Number(b.isFirst) - Number(a.isFirst))
        .map((menu, i) => removeSecrets(toExportedMenu(menu), `subflows.${s}.menus.${i}`, secretsRemoved)),
    })),
    secretsRemoved,
  };
}

const toExportedMenu = ({ appId: _appId, isFirst: _isFirst, mapPosition: _placed, ...menu }: Menu) => menu;

/** How deep a value nests, walked without recursion so a hostile document cannot exhaust the stack. */
function measureDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Fields of the input the schema does not know (zod drops them quietly): each is a problem, not a silent loss. */
function findUnknownFields(input: unknown, parsed: unknown, path: string[], problems: ImportProblem[]): void {
  if (Array.isArray(input) && Array.isArray(parsed)) {
    for (const [i, item] of input.entries()) findUnknownFields(item, parsed[i], [...path, String(i)], problems);
  } else if (isPlainObject(input) && isPlainObject(parsed)) {
    for (const [key, item] of Object.entries(input)) {
      if (!(key in parsed)) problems.push({ field: [...path, key].join('.'), message: APP_TRANSFER_MESSAGES.unknownField });
      else findUnknownFields(item, parsed[key], [...path, key], problems);
    }
  }
}

const toProblems = (error: z.ZodError, at: string[] = []): ImportProblem[] =>
  error.issues.map((issue) => ({ field: [...at, ...issue.path.map(String)].join('.'), message: issue.message }));

function refuse(problems: ImportProblem[]): never {
  throw invalid(APP_TRANSFER_MESSAGES.refused(problems.length), { errors: problems });
}

/**
 * The document, if it says it is an export this server reads (its format, version and spec version): checked before
 * anything else.
 */
function checkIsAppExport(document: unknown): Record<string, unknown> {
  if (!isPlainObject(document) || document.format !== APP_EXPORT_FORMAT)
    throw invalid(APP_TRANSFER_MESSAGES.notAnExport, { errors: [{ field: 'format', message: APP_TRANSFER_MESSAGES.notAnExport }] });
  if (document.version !== APP_EXPORT_VERSION) {
    const message = APP_TRANSFER_MESSAGES.wrongVersion(document.version);
    throw invalid(message, { errors: [{ field: 'version', message }] });
  }
  try {
    readSpecVersion(document.specVersion);
  } catch (err) {
    if (!(err instanceof SpecVersionError)) throw err;
    throw invalid(err.message, { errors: [{ field: 'specVersion', message: err.message }] });
  }
  return document;
}

/** An export with its menus left unread, so they can be read a few at a time. */
const appExportShellSchema = appExportSchema.extend({ menus: z.array(z.unknown()).max(MAX_MENUS_PER_APP) });

/**
 * Menus read or checked between two turns of the event loop: a large file's work is cut into slices of well under
 * a millisecond each, so hops waiting on this thread are answered in between.
 */
const MENUS_PER_SLICE = 25;

/**
 * The document as an export this server reads: refused at once when it is not one (too deep, the wrong shape),
 * brought forward from the file's spec version, then read; its unknown fields are added to `problems`, so they are
 * listed with the rest.
 */
async function readAppExport(file: Record<string, unknown>, problems: ImportProblem[]): Promise<AppExport> {
  if (measureDepth(file, APP_IMPORT_MAX_DEPTH) > APP_IMPORT_MAX_DEPTH) throw invalid(APP_TRANSFER_MESSAGES.tooDeep);
  const document = migrateAppExport(file);
  const shell = appExportShellSchema.safeParse(document);
  if (!shell.success) refuse(toProblems(shell.error));
  const shapeProblems: ImportProblem[] = [];
  const menus: ExportedMenu[] = [];
  for (const [i, menu] of shell.data.menus.entries()) {
    if (i > 0 && i % MENUS_PER_SLICE === 0) await yieldToEventLoop();
    const parsed = exportedMenuSchema.safeParse(menu);
    if (parsed.success) menus.push(parsed.data);
    else shapeProblems.push(...toProblems(parsed.error, ['menus', String(i)]));
  }
  if (shapeProblems.length > 0) refuse(shapeProblems);
  const doc: AppExport = { ...shell.data, menus };
  findUnknownFields(document, doc, [], problems);
  return doc;
}

/** The new app's columns from the file's settings and the caller's name and shortcode, by the create-app rules. */
function toImportedAppColumns(doc: AppExport, body: ImportAppBody, problems: ImportProblem[]) {
  const settings = doc.app;
  const appName = body.appName || settings.appName;
  if (!appName) problems.push({ field: body.appName === undefined ? 'app.appName' : 'appName', message: APP_MESSAGES.incomplete });
  if (!settings.description) problems.push({ field: 'app.description', message: APP_MESSAGES.incomplete });
  if (!(APP_COUNTRIES as readonly string[]).includes(settings.country))
    problems.push({ field: 'app.country', message: APP_MESSAGES.unknownCountry });
  const columns = {
    appName,
    description: settings.description,
    country: settings.country,
    useTemplateTag: settings.useTemplateTag,
    screenLimit: settings.screenLimit,
    languages: settings.languages ?? null,
    gatewayConnections: settings.gatewayConnections,
  };
  // A new shortcode is typed whole, as when cloning; else the file's settings are checked as the create form's.
  if (body.shortCode) {
    const check = resolveAppShortcode({
      connectionMode: 'existing-shortcode',
      customShortCode: body.shortCode,
      useTemplateTag: settings.useTemplateTag,
    });
    if (!check.ok) problems.push({ field: 'shortCode', message: check.message });
    const shortCode = check.ok ? check.shortCode : body.shortCode;
    return { ...columns, shortCode, connectionMode: 'existing-shortcode', baseShortCode: '', customShortCode: shortCode };
  }
  const check = resolveAppShortcode(settings);
  if (!check.ok) problems.push({ field: `app.${check.field}`, message: check.message });
  const shortCode = check.ok ? check.shortCode : settings.shortCode;
  return {
    ...columns,
    shortCode,
    connectionMode: settings.connectionMode,
    baseShortCode: settings.connectionMode === 'new-shortcode' ? settings.baseShortCode : '',
    customShortCode: settings.connectionMode === 'existing-shortcode' ? shortCode : '',
  };
}

/**
 * The file's menus with new ids: every goto and parentMenuId that names a menu of the file is rewritten to that
 * menu's new id. An id the file does not define is never taken as an existing menu: validateMenu then reports
 * the goto (`The target menu does not exist in this app.`), as the designer would.
 */
function remapMenus(
  fileMenus: readonly ExportedMenu[],
  appId: string,
  subflowIds: ReadonlyMap<string, string>,
  problems: ImportProblem[],
  at = 'menus',
): Menu[] {
  const idMap = new Map<string, string>();
  fileMenus.forEach((menu, i) => {
    if (idMap.has(menu.uniqueId)) problems.push({ field: `${at}.${i}.uniqueId`, message: APP_TRANSFER_MESSAGES.duplicateMenuId });
    else idMap.set(menu.uniqueId, randomUUID());
  });
  return fileMenus.map((menu, i) => {
    const parentMenuId = menu.parentMenuId === null ? null : (idMap.get(menu.parentMenuId) ?? null);
    if (menu.parentMenuId !== null && parentMenuId === null)
      problems.push({ field: `${at}.${i}.parentMenuId`, message: APP_TRANSFER_MESSAGES.unknownParent });
    return {
      ...menu,
      uniqueId: idMap.get(menu.uniqueId) ?? randomUUID(),
      appId,
      isFirst: i === 0,
      parentMenuId,
      switchOperations: menu.switchOperations.map((rule) => {
        const remapped =
          rule.action === 'goto' && idMap.has(rule.actionParam) ? { ...rule, actionParam: idMap.get(rule.actionParam)! } : rule;
        // A rule into a sub-flow the file carries enters the importing account's new copy of it.
        return remapped.subflow && subflowIds.has(remapped.subflow.id)
          ? { ...remapped, subflow: { ...remapped.subflow, id: subflowIds.get(remapped.subflow.id)! } }
          : remapped;
      }),
    };
  });
}

async function insertMenus(tx: Parameters<Parameters<AppContext['db']['transaction']>[0]>[0], appId: string, list: Menu[], at: Date) {
  if (list.length === 0) return;
  await tx.insert(menus).values(
    list.map((menu, position) => ({
      id: menu.uniqueId,
      appId,
      position,
      isFirst: position === 0,
      ...toMenuRowValues(menu),
      createdAt: at,
      updatedAt: at,
    })),
  );
}

const describeAt = (menu: Pick<Menu, 'userDefinedName'>, message: string) =>
  menu.userDefinedName ? `${menu.userDefinedName}: ${message}` : message;

/**
 * Every menu by the designer's rules, each against one index of the file's menus (linear in the file, not a scan
 * of the list per menu), a slice at a time; and every custom function it runs must be the importing account's.
 */
async function checkMenus(ctx: AppContext, user: AuthUser, imported: Menu[], problems: ImportProblem[], at = 'menus'): Promise<void> {
  const index = createMenuRefIndex(imported);
  for (const [i, menu] of imported.entries()) {
    if (i > 0 && i % MENUS_PER_SLICE === 0) await yieldToEventLoop();
    for (const error of validateMenu(menu, index))
      problems.push({ field: `${at}.${i}.${error.field}`, message: describeAt(menu, error.message) });
  }
  const uuids = imported.flatMap((menu) =>
    menu.actions.flatMap((a) => (a.inheritsPlugin === 'customAction' && a.code.uuid ? [a.code.uuid] : [])),
  );
  const valid = uuids.filter(isUuid);
  const owned = valid.length
    ? new Set(
        (
          await ctx.db
            .select({ id: customActions.id })
            .from(customActions)
            .where(and(inArray(customActions.id, valid), eq(customActions.userId, user.id)))
        ).map((r) => r.id),
      )
    : new Set<string>();
  for (const [i, menu] of imported.entries()) {
    for (const [a, action] of menu.actions.entries()) {
      if (action.inheritsPlugin === 'customAction' && action.code.uuid && !owned.has(action.code.uuid))
        problems.push({ field: `${at}.${i}.actions.${a}.code.uuid`, message: describeAt(menu, APP_TRANSFER_MESSAGES.unknownCustomAction) });
    }
  }
}

/** Translations only for the file's other languages, and rules switching only to one of its languages. */
function checkMenuLanguages(imported: Menu[], languages: AppLanguages | null, problems: ImportProblem[]): void {
  const others = new Set<string>(languages?.otherLanguages ?? []);
  const known = new Set(listAppLanguages(languages));
  imported.forEach((menu, i) => {
    for (const code of Object.keys(menu.translations ?? {}))
      if (!others.has(code)) problems.push({ field: `menus.${i}.translations.${code}`, message: LANGUAGE_MESSAGES.notInApp(code) });
    menu.switchOperations.forEach((rule, r) => {
      if (rule.setLanguage !== undefined && !known.has(rule.setLanguage))
        problems.push({ field: `menus.${i}.switchOperations.${r}.setLanguage`, message: LANGUAGE_MESSAGES.notInApp(rule.setLanguage) });
    });
  });
}

/**
 * A new app in the caller's account from an export file: the file is checked as a whole (format, version,
 * shape, unknown fields, the create-app and menu rules, its shortcode against the caller's other apps, custom
 * functions) and refused with every problem at once, or created with its menus in one transaction. The reply's
 * warnings are the engine's pre-deploy checks on the new draft and the secrets to enter again.
 */
export async function importApp(
  ctx: AppContext,
  user: AuthUser,
  body: ImportAppBody,
  origin: string,
): Promise<{ app: App; warnings: ImportProblem[] }> {
  checkCanBuildApps(user);
  const problems: ImportProblem[] = [];
  const file = checkIsAppExport(body.document);
  // The limits first, from the menu count alone: a file past them is refused before any of its menus is read.
  await checkImportLimits(ctx, user, Array.isArray(file.menus) ? file.menus.length : 0);
  const doc = await readAppExport(file, problems);
  const columns = toImportedAppColumns(doc, body, problems);
  const appId = createAppId();
  const subflowIds = new Map(doc.subflows.map((sf) => [sf.id, createAppId()]));
  const imported = remapMenus(doc.menus, appId, subflowIds, problems);
  await checkMenus(ctx, user, imported, problems);
  checkMenuLanguages(imported, columns.languages, problems);
  const subflows: SubflowVersion[] = [];
  for (const [s, subflow] of doc.subflows.entries()) {
    const id = subflowIds.get(subflow.id)!;
    const at = `subflows.${s}.menus`;
    const subflowMenus = remapMenus(subflow.menus, id, new Map(), problems, at);
    await checkMenus(ctx, user, subflowMenus, problems, at);
    subflows.push({ id, name: subflow.name, version: 0, inputs: subflow.inputs, outputs: subflow.outputs, menus: subflowMenus });
  }
  const dialStringProblem = await findDialStringProblem(ctx.db, user.id, columns.shortCode, ctx.now());
  if (dialStringProblem) problems.push({ field: 'shortCode', message: dialStringProblem });
  if (problems.length > 0) refuse(problems);

  await withDialStringClaim(columns.shortCode, () =>
    ctx.db.transaction(async (tx) => {
      // Counted again with the account locked: parallel imports (and creations) take turns at the limit.
      await checkAppLimit(ctx, user, tx);
      await tx.insert(apps).values({ id: appId, userId: user.id, ...columns, createdAt: ctx.now(), updatedAt: ctx.now() });
      await checkMenuLimit(ctx, user, appId, imported.length, tx);
      await insertMenus(tx, appId, imported, ctx.now());
      if (subflows.length > 0) await checkSubflowLimit(tx, user.id, subflows.length);
      for (const subflow of subflows) {
        await tx.insert(apps).values({
          id: subflow.id,
          userId: user.id,
          appName: subflow.name,
          country: '',
          shortCode: '',
          connectionMode: 'shared',
          channel: SUBFLOW_CHANNEL,
          subflowInterface: { inputs: subflow.inputs, outputs: subflow.outputs },
          createdAt: ctx.now(),
          updatedAt: ctx.now(),
        });
        await checkMenuLimit(ctx, user, subflow.id, subflow.menus.length, tx);
        await insertMenus(tx, subflow.id, subflow.menus, ctx.now());
      }
    }),
  );

  const draft = appVersionSchema.parse({
    appId,
    versionId: 'draft',
    appName: columns.appName,
    shortCode: columns.shortCode,
    useTemplateTag: columns.useTemplateTag,
    screenLimit: columns.screenLimit,
    channel: 'ussd',
    ...(columns.languages ? { languages: columns.languages } : {}),
    ...(columns.gatewayConnections.length > 0 ? { gatewayConnections: columns.gatewayConnections } : {}),
    menus: imported,
    ...(subflows.length > 0 ? { subflows } : {}),
  });
  const indexOf = new Map(imported.map((menu, i) => [menu.uniqueId, i]));
  const warnings: ImportProblem[] = lintApp(draft, createRenderAllowance(DEPLOY_LINT_RENDER_MS)).map((issue) => {
    const at = issue.menuId !== null && indexOf.has(issue.menuId) ? `menus.${indexOf.get(issue.menuId)}` : 'menus';
    return { field: issue.field ? `${at}.${issue.field}` : at, message: issue.menu ? `${issue.menu}: ${issue.message}` : issue.message };
  });
  for (const field of doc.secretsRemoved) warnings.push({ field, message: APP_TRANSFER_MESSAGES.secretRemoved });
  return { app: await getApp(ctx, user, appId, origin), warnings };
}
