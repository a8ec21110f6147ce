import { Stack } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { useState } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import type { LintIssueDto } from '../../../shared/api/menus.schema';
import type { MenuBody } from '../../../shared/app';
import { AppDeployDialog } from './app-deploy-dialog';
import { AppDeployPanel } from './app-deploy-panel';
import { AppVersionsDrawer } from './app-versions-drawer';
import classes from './menus.module.css';
import { confirmMenuDelete } from './menu-delete-confirm';
import { MenuDesignHeader } from './menu-design-header';
import type { MenuSubmitResult } from './menu-edit-form';
import { MenuEditorPanel } from './menu-editor-panel';
import { asSavedMenu, getTabOfField, type MenuDraft } from './menu-form-state';
import { findRulesLeadingTo, NEW_MENU_KEY, type MenuListItem } from './menu-list-order';
import { MenuListPanel } from './menu-list-panel';
import { useAppDeploy } from './use-app-deploy';
import { useAppMenus } from './use-app-menus';
import { useMenuEditor } from './use-menu-editor';
import { useMenuList } from './use-menu-list';
import { getAppLinks } from '../../lib/paths';
import { LoadErrorPanel } from '../../components/load-error-panel';
import { toPreviewApp } from './menu-screen-preview';

/** Wait after a menu update before the lists are read again. */
export const MENU_REFRESH_DELAY_MS = 500;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Menu Design View (/app/design/{appId}): the app's menus, their edit form, deploy and versions. A WhatsApp bot's
 * designer (/whatsapp-bot/design/{id}) is this screen too, with the bot's list, chat simulator and message limit.
 */
export function MenuDesignPage() {
  const params = useParams();
  const appId = params.appId ?? params.id ?? '';
  const location = useLocation();
  const data = useAppMenus(appId);
  const list = useMenuList(data.menus, data.lintIssues);
  const editor = useMenuEditor({ appId, menus: data.menus, isPending: data.isPending, newMenu: list.newMenu, setNewMenu: list.setNewMenu });
  const deployment = useAppDeploy(appId);
  const [isVersionsOpen, setVersionsOpen] = useState(false);
  const [isDeployOpen, setDeployOpen] = useState(false);

  /** Saves the open menu, closes the form, saves the order silently (unless a filter hides part of the list), reads the lists again. */
  const submit = async (body: MenuBody, opened: MenuDraft): Promise<MenuSubmitResult> => {
    const saved = await data.saveMenu(body, asSavedMenu(opened));
    if (!saved.ok) return saved;
    const order = list.items.flatMap((i) => (i.key === NEW_MENU_KEY ? [saved.uniqueId] : i.uniqueId ? [i.uniqueId] : []));
    list.setNewMenu(null);
    editor.close();
    if (!list.isFiltering && (await data.saveOrderQuietly(order))) list.resetOrder();
    await wait(MENU_REFRESH_DELAY_MS);
    await data.refreshMenus();
    return { ok: true };
  };

  const remove = (item: MenuListItem) => {
    // What was open when Delete was pressed: the modal's answer comes later.
    const { editing } = editor;
    const { newMenu } = list;
    confirmMenuDelete({
      name: item.userDefinedName || 'this new menu',
      leadingHere: item.uniqueId ? findRulesLeadingTo(data.menus, item.uniqueId) : [],
      onConfirm: async () => {
        // A menu never saved has no uniqueId: removing it is local only.
        if (!item.uniqueId) {
          list.setNewMenu(null);
          if (editing?.key === NEW_MENU_KEY) editor.close();
          return;
        }
        if (!(await data.removeMenu(item.uniqueId))) return;
        if (editing?.key === item.key) editor.close();
        if (newMenu?.afterKey === item.key) list.setNewMenu({ afterKey: null });
        list.dropFromOrder(item.uniqueId);
        await data.refreshMenus();
      },
    });
  };

  const saveOrder = async () => {
    if (await data.saveOrder(list.orderIds)) list.resetOrder();
  };

  /** A deploy issue's link: the menu on the tab of the field, its problems marked. */
  const openIssue = (issue: LintIssueDto) => {
    if (!issue.menuId) return;
    if (!data.menus.some((m) => m.uniqueId === issue.menuId)) {
      showToast({ color: 'yellow', title: 'Menu not found', message: `${issue.menu ?? 'This menu'} is no longer in the app.` });
      return;
    }
    list.setQuery('');
    editor.open(issue.menuId, { tab: issue.field ? getTabOfField(issue.field) : 'menu', showProblems: true });
  };

  const { app } = data;
  const previewApp = toPreviewApp(appId, app, data.menus);

  // One address per designer: a bot opened under /app/design (or an app under the bots' path) moves to its own.
  const canonical = app && getAppLinks(app).designer;
  if (canonical && canonical !== location.pathname) return <Navigate to={`${canonical}${location.search}`} replace />;

  return (
    <Stack gap="lg">
      <MenuDesignHeader
        appId={appId}
        app={app}
        isDeploying={deployment.isDeploying}
        onDeploy={() => setDeployOpen(true)}
        onOpenVersions={() => setVersionsOpen(true)}
      />
      {deployment.outcome && (
        <AppDeployPanel
          appId={appId}
          outcome={deployment.outcome}
          onOpenMenu={openIssue}
          onDeployAnyway={deployment.deployAnyway}
          onClose={deployment.dismiss}
        />
      )}
      {data.loadError && <LoadErrorPanel message={data.loadError.message} onRetry={() => void data.retry()} />}
      <div className={classes.layout}>
        <MenuListPanel
          list={list}
          isPending={data.isPending}
          hasMenus={data.menus.length > 0}
          app={app}
          activeKey={editor.editing?.key ?? null}
          isSavingOrder={data.isSavingOrder}
          onSaveOrder={() => void saveOrder()}
          onOpen={editor.open}
          onDelete={remove}
        />
        <MenuEditorPanel
          app={previewApp}
          editing={editor.editing}
          menu={editor.editedMenu}
          liteMenus={data.liteMenus}
          lintIssues={data.lintIssues}
          onSubmit={submit}
          onClose={editor.close}
          onDirtyChange={editor.setDirty}
        />
      </div>
      <AppDeployDialog
        opened={isDeployOpen}
        nextVersion={app ? (app.liveVersion ?? 0) + 1 : null}
        onClose={() => setDeployOpen(false)}
        onDeploy={(naming) => {
          setDeployOpen(false);
          void deployment.deploy(naming);
        }}
      />
      <AppVersionsDrawer appId={appId} opened={isVersionsOpen} onClose={() => setVersionsOpen(false)} isBot={app?.channel === 'whatsapp'} />
    </Stack>
  );
}
