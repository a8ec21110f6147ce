import { randomUUID } from 'node:crypto';
import { apps, appVersions, menus } from '../../../db/schema';
import type { Db } from '../../../db/client';
import { appVersionSchema, menuSchema, stampDefinition, type AppChannel, type AppVersion, type Menu } from '../../../shared/app';
import { createAppId } from '../../core/app-access';
import { getFeaturedTemplates, type TemplateDefinition } from './featured-templates';

/** A template's menus as the engine and the menus table hold them: keys become uniqueIds. */
export function buildTemplateMenus(def: TemplateDefinition, appId: string, newId: () => string = randomUUID): Menu[] {
  const ids = new Map(def.menus.map((m) => [m.key, newId()]));
  return def.menus.map((m, index) =>
    menuSchema.parse({
      uniqueId: ids.get(m.key),
      appId,
      isFirst: index === 0,
      userDefinedName: m.userDefinedName,
      displayText: m.displayText,
      headerText: m.headerText ?? '',
      footerText: m.footerText ?? '',
      terminate: m.terminate ?? false,
      allowGoBack: m.allowGoBack ?? false,
      goBackInputIndicator: m.goBackInputIndicator ?? '',
      switchOperations: (m.routes ?? []).map(([operator, compareVal, target]) =>
        'goto' in target
          ? { operator, compareVal, action: 'goto', actionParam: ids.get(target.goto) }
          : { operator, compareVal, action: 'Terminate', actionParam: target.terminate },
      ),
      inputValidations: m.validations ?? [],
      actions: m.actions ?? [],
    }),
  );
}

export function buildTemplateVersion(def: TemplateDefinition, appId = 'template'): AppVersion {
  return appVersionSchema.parse({
    appId,
    appName: def.appName,
    shortCode: def.shortCode,
    useTemplateTag: def.useTemplateTag,
    menus: buildTemplateMenus(def, appId),
  });
}

/** Inserts an app with its menus from a definition; returns the app id. Optionally deploys version 1. */
export async function insertAppFromDefinition(
  db: Db,
  def: TemplateDefinition,
  options: { ownerId: string; isTemplate: boolean; appName?: string; deploy?: boolean; channel?: AppChannel },
): Promise<string> {
  const appId = createAppId();
  const menuList = buildTemplateMenus(def, appId);
  await db.transaction(async (tx) => {
    await tx.insert(apps).values({
      id: appId,
      userId: options.ownerId,
      appName: options.appName ?? def.appName,
      description: def.description,
      country: def.country,
      useTemplateTag: def.useTemplateTag,
      shortCode: def.shortCode,
      connectionMode: 'existing-shortcode',
      customShortCode: def.shortCode,
      isTemplate: options.isTemplate,
      flagIcon: def.flagIcon,
      channel: options.channel ?? 'ussd',
    });
    await tx.insert(menus).values(
      menuList.map((m, position) => ({
        id: m.uniqueId,
        appId,
        position,
        isFirst: m.isFirst,
        userDefinedName: m.userDefinedName,
        displayText: m.displayText,
        headerText: m.headerText,
        footerText: m.footerText,
        inputHolder: m.inputHolder,
        allowGoBack: m.allowGoBack,
        goBackInputIndicator: m.goBackInputIndicator,
        terminate: m.terminate,
        parentMenuId: m.parentMenuId,
        switchOperations: m.switchOperations,
        actions: m.actions,
        inputValidations: m.inputValidations,
        saveToContact: m.saveToContact ?? null,
      })),
    );
    if (options.deploy) {
      const definition = appVersionSchema.parse({
        appId,
        versionId: 'v1',
        appName: options.appName ?? def.appName,
        shortCode: def.shortCode,
        useTemplateTag: def.useTemplateTag,
        channel: options.channel ?? 'ussd',
        menus: menuList,
      });
      await tx.insert(appVersions).values({ appId, number: 1, definition: stampDefinition(definition), createdBy: options.ownerId });
    }
  });
  return appId;
}

export async function seedFeaturedTemplates(db: Db, ownerId: string, sandboxOrigin: string): Promise<string[]> {
  const ids: string[] = [];
  for (const def of getFeaturedTemplates(sandboxOrigin)) ids.push(await insertAppFromDefinition(db, def, { ownerId, isTemplate: true }));
  return ids;
}
