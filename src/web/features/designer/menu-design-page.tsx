import { Anchor, Badge, Button, EmptyState, Group, Loader, Paper, Skeleton, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  IconArrowLeft,
  IconDeviceMobile,
  IconHistory,
  IconListDetails,
  IconRocket,
  IconSearch,
  IconSearchOff,
  IconSitemap,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { LintIssueDto } from '../../../shared/api/menus.schema';
import { createMenuDraft, type Menu, type MenuBody } from '../../../shared/app';
import { isOk, type ApiReply } from '../../lib/api';
import { APP_LIST_PATH } from '../apps/app-create-page';
import { appQueryKey, isNetworkFailure } from '../apps/apps.api';
import { AppDeployPanel, type DeployOutcome } from './app-deploy-panel';
import { AppVersionsDrawer } from './app-versions-drawer';
import { createMenu, deleteMenu, deployChanges, menusLiteQueryKey, menusQueryKey, saveMenuOrder, updateMenu, versionsQueryKey } from './designer.api';
import classes from './designer.module.css';
import { MenuAddButton, MenuCardList } from './menu-card-list';
import { confirmDiscard, MenuEditForm, type MenuSubmitResult } from './menu-edit-form';
import { getTabOfField, type MenuDraft, type MenuFormTab } from './menu-form-state';
import { FILTER_DEBOUNCE_MS, FILTER_MIN_LENGTH, filterMenus, insertAfter, isFilterActive, mergeOrder, moveKey, NEW_MENU_KEY, toListItem, type MenuListItem } from './menu-list-order';
import { AppNotFoundError, useDesignerApp, useMenus, useMenusLite } from './use-designer';

export const emulatorPath = (appId: string) => `/app/emulator/${encodeURIComponent(appId)}`;

/** Wait after a menu update before the lists are read again (spec section 9). */
export const MENU_REFRESH_DELAY_MS = 500;
export const DELETE_MENU_QUESTION = 'Are you sure you want to delete this menu?';
export const DEPLOY_RUNNING_LABEL = 'Deployment in progress';

const failureText = (reply: ApiReply, fallback: string) => (isNetworkFailure(reply) ? `${fallback} Check your connection and try again.` : reply.message || fallback);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Editing {
  key: string;
  tab: MenuFormTab;
  /** Opened from a deploy issue: show the menu's problems at once. */
  showProblems: boolean;
  nonce: number;
}

/** Menu Design View (/app/design/{appId}): the app's menus, their edit form, deploy and versions. */
export function MenuDesignPage() {
  const { appId = '' } = useParams();
  const queryClient = useQueryClient();
  const appQuery = useDesignerApp(appId);
  const menusQuery = useMenus(appId);
  const liteQuery = useMenusLite(appId);

  const [localOrder, setLocalOrder] = useState<string[] | null>(null);
  const [newMenu, setNewMenu] = useState<{ afterKey: string | null } | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [isDirty, setDirty] = useState(false);
  const [query, setQuery] = useState('');
  const [debouncedQuery] = useDebouncedValue(query, FILTER_DEBOUNCE_MS);
  const [isDeploying, setDeploying] = useState(false);
  const [deployOutcome, setDeployOutcome] = useState<DeployOutcome | null>(null);
  const [isVersionsOpen, setVersionsOpen] = useState(false);
  const [isSavingOrder, setSavingOrder] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();

  const menus = useMemo(() => menusQuery.data ?? [], [menusQuery.data]);
  const serverIds = useMemo(() => menus.map((m) => m.uniqueId), [menus]);
  const orderIds = useMemo(() => mergeOrder(serverIds, localOrder), [serverIds, localOrder]);
  const isOrderChanged = orderIds.join() !== serverIds.join();
  const items = useMemo(() => {
    const byId = new Map(menus.map((m) => [m.uniqueId, m]));
    const list = orderIds.map((id) => toListItem(byId.get(id)!));
    if (!newMenu) return list;
    const draftItem: MenuListItem = { key: NEW_MENU_KEY, userDefinedName: '', displayText: '', isFirst: newMenu.afterKey === null, terminate: false, ruleCount: 0, actionCount: 0, validationCount: 0 };
    return insertAfter(list, newMenu.afterKey, draftItem);
  }, [menus, orderIds, newMenu]);
  const isFiltering = isFilterActive(debouncedQuery);
  const visibleItems = useMemo(() => filterMenus(items, debouncedQuery), [items, debouncedQuery]);

  const editedMenu: MenuDraft | null = useMemo(() => {
    if (!editing) return null;
    if (editing.key === NEW_MENU_KEY) {
      return { ...createMenuDraft(appId), isFirst: newMenu?.afterKey === null, parentMenuId: newMenu?.afterKey ?? null };
    }
    return menus.find((m) => m.uniqueId === editing.key) ?? null;
  }, [editing, menus, newMenu, appId]);

  const refreshMenus = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: menusQueryKey(appId), exact: true }),
        queryClient.invalidateQueries({ queryKey: menusLiteQueryKey(appId) }),
      ]),
    [queryClient, appId],
  );

  /** Opens a menu (or the new one) in the form, asking first when the open form has unsaved changes. */
  const open = (key: string, options: { tab?: MenuFormTab; showProblems?: boolean; afterKey?: string | null } = {}) =>
    confirmDiscard(isDirty, () => {
      if (key === NEW_MENU_KEY) setNewMenu({ afterKey: options.afterKey ?? null });
      else if (editing?.key === NEW_MENU_KEY) setNewMenu(null);
      setDirty(false);
      setEditing({ key, tab: options.tab ?? 'menu', showProblems: !!options.showProblems, nonce: Date.now() });
      // On a narrow screen the form sits above the list.
      requestAnimationFrame(() => document.getElementById('menu-editor')?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
    });

  // The flow map links here with ?menu=<uniqueId>[&tab=navigation]: open that menu once the list is loaded.
  const menuParam = searchParams.get('menu');
  useEffect(() => {
    if (!menuParam || menusQuery.isPending) return;
    if (menus.some((m) => m.uniqueId === menuParam)) {
      const tab = searchParams.get('tab');
      open(menuParam, { tab: tab === 'navigation' || tab === 'actions' || tab === 'validation' ? tab : 'menu' });
    }
    setSearchParams({}, { replace: true });
    // Once per link: open and the lists are read from the render that sees the loaded menus.
  }, [menuParam, menusQuery.isPending]);

  const close = () => {
    if (editing?.key === NEW_MENU_KEY) setNewMenu(null);
    setEditing(null);
    setDirty(false);
  };

  const submit = async (body: MenuBody): Promise<MenuSubmitResult> => {
    const isNew = !body.uniqueId;
    const reply = isNew ? await createMenu(body) : await updateMenu(body);
    if (!isOk(reply) || !reply.uniqueId) {
      notifications.show({ color: 'red', title: 'Menu not saved', message: failureText(reply, 'The menu could not be saved.') });
      return { ok: false, errors: Array.isArray(reply.errors) ? reply.errors : reply.field ? [{ field: reply.field, message: reply.message ?? '' }] : undefined };
    }
    notifications.show({ color: 'teal', title: 'Saved', message: reply.message || 'Menu saved' });
    const uniqueId = reply.uniqueId;
    const saved = { ...body, uniqueId } as Menu;
    const order = items.flatMap((i) => (i.key === NEW_MENU_KEY ? [uniqueId] : i.uniqueId ? [i.uniqueId] : []));
    // Show the saved menu at once (in place, as the server put it) while the lists are read again.
    queryClient.setQueryData<Menu[]>(menusQueryKey(appId), (old = []) => {
      if (!isNew) return old.map((m) => (m.uniqueId === uniqueId ? saved : m));
      const at = body.parentMenuId ? old.findIndex((m) => m.uniqueId === body.parentMenuId) + 1 : 0;
      return [...old.slice(0, at), saved, ...old.slice(at)];
    });
    setNewMenu(null);
    setEditing(null);
    setDirty(false);
    // After a save the order is saved silently, unless a filter hides part of the list.
    if (!isFilterActive(debouncedQuery)) {
      const orderReply = await saveMenuOrder(appId, order);
      if (isOk(orderReply)) {
        queryClient.setQueryData<Menu[]>(menusQueryKey(appId), (old = []) => {
          const byId = new Map(old.map((m) => [m.uniqueId, m]));
          return order.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
        });
        setLocalOrder(null);
      } else notifications.show({ color: 'red', title: 'Order not saved', message: failureText(orderReply, 'The menu order could not be saved.') });
    }
    await wait(MENU_REFRESH_DELAY_MS);
    await refreshMenus();
    return { ok: true };
  };

  const remove = (item: MenuListItem) =>
    modals.openConfirmModal({
      title: `Delete ${item.userDefinedName || 'this new menu'}`,
      centered: true,
      children: <Text size="sm">{DELETE_MENU_QUESTION}</Text>,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        // A menu never saved has no uniqueId: removing it is local only.
        if (!item.uniqueId) {
          setNewMenu(null);
          if (editing?.key === NEW_MENU_KEY) close();
          return;
        }
        const reply = await deleteMenu(item.uniqueId);
        if (!isOk(reply)) {
          notifications.show({ color: 'red', title: 'Menu not deleted', message: failureText(reply, 'The menu could not be deleted.') });
          return;
        }
        notifications.show({ color: 'yellow', title: 'Deleted', message: reply.message || 'Menu deleted' });
        if (editing?.key === item.key) close();
        if (newMenu?.afterKey === item.key) setNewMenu({ afterKey: null });
        setLocalOrder((o) => o?.filter((id) => id !== item.uniqueId) ?? null);
        await refreshMenus();
      },
    });

  const saveOrder = async () => {
    setSavingOrder(true);
    const reply = await saveMenuOrder(appId, orderIds);
    setSavingOrder(false);
    if (!isOk(reply)) {
      notifications.show({ color: 'red', title: 'Order not saved', message: failureText(reply, 'The menu order could not be saved.') });
      return;
    }
    notifications.show({ color: 'teal', title: 'Saved', message: reply.message || 'Menu order saved' });
    await refreshMenus();
    setLocalOrder(null);
  };

  const deploy = async () => {
    setDeploying(true);
    setDeployOutcome(null);
    const reply = await deployChanges(appId);
    setDeploying(false);
    if (isOk(reply) && reply.data) {
      const version = reply.data.version;
      setDeployOutcome({ kind: 'deployed', message: reply.message ?? '', version, warnings: reply.data.warnings });
      const warnings = reply.data.warnings.length;
      notifications.show({
        color: 'teal',
        title: `Deployed version ${version}`,
        message: warnings ? `Live now, with ${warnings} warning${warnings > 1 ? 's' : ''} to look at.` : 'Your changes are live.',
      });
      await Promise.all([queryClient.invalidateQueries({ queryKey: versionsQueryKey(appId) }), queryClient.invalidateQueries({ queryKey: appQueryKey(appId) })]);
      return;
    }
    const message = failureText(reply, 'The app could not be deployed.');
    notifications.show({ color: 'red', title: 'Not deployed', message });
    setDeployOutcome({ kind: 'refused', message, errors: reply.errors ?? [], warnings: reply.warnings ?? [] });
  };

  const openIssue = (issue: LintIssueDto) => {
    if (!issue.menuId) return;
    if (!menus.some((m) => m.uniqueId === issue.menuId)) {
      notifications.show({ color: 'yellow', title: 'Menu not found', message: `${issue.menu ?? 'This menu'} is no longer in the app.` });
      return;
    }
    setQuery('');
    open(issue.menuId, { tab: issue.field ? getTabOfField(issue.field) : 'menu', showProblems: true });
  };

  const app = appQuery.data;
  if (appQuery.error instanceof AppNotFoundError) {
    return (
      <Paper withBorder radius="lg" p="xl" data-testid="app-not-found">
        <EmptyState icon={<IconSearchOff size={28} />} withIndicatorBackground title="App not found" description="This app does not exist, was deleted, or belongs to another account.">
          <EmptyState.Actions>
            <Button component={Link} to={APP_LIST_PATH} variant="default">
              Back to My USSD Apps
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Paper>
    );
  }
  const loadError = appQuery.error ?? menusQuery.error;
  const previewApp = app ? { appId: app.appId, appName: app.appName, shortCode: app.shortCode, screenLimit: app.screenLimit } : { appId, appName: '', shortCode: '' };

  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to={APP_LIST_PATH} size="sm" c="dimmed">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} /> My USSD Apps
          </Group>
        </Anchor>
        <Group justify="space-between" align="flex-end" mt={6} gap="md">
          <div style={{ minWidth: 0 }}>
            <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts={0.6}>
              Menu Design View
            </Text>
            {app ? (
              <Title order={1} fz={{ base: 24, sm: 30 }} style={{ overflowWrap: 'anywhere' }}>
                {app.appName}
              </Title>
            ) : (
              <Skeleton height={34} width={240} mt={4} />
            )}
            {app && (
              <Group gap={8} mt={4}>
                <Text size="sm" c="dimmed" ff="monospace">
                  {app.shortCode}
                </Text>
                {app.liveVersion ? (
                  <Badge size="sm" variant="light" color="teal">
                    Version {app.liveVersion} live
                  </Badge>
                ) : (
                  <Badge size="sm" variant="light" color="gray">
                    Not deployed yet
                  </Badge>
                )}
              </Group>
            )}
          </div>
          <Group gap="sm">
            <Button component={Link} to={`/app/design/${encodeURIComponent(appId)}/flow`} variant="default" leftSection={<IconSitemap size={18} />}>
              Flow map
            </Button>
            <Button component={Link} to={emulatorPath(appId)} variant="default" leftSection={<IconDeviceMobile size={18} />}>
              Emulator
            </Button>
            <Button variant="default" leftSection={<IconHistory size={18} />} onClick={() => setVersionsOpen(true)}>
              Versions
            </Button>
            <Button
              leftSection={isDeploying ? <Loader size={16} color="teal.9" /> : <IconRocket size={18} />}
              onClick={() => void deploy()}
              disabled={isDeploying}
              aria-busy={isDeploying}
              data-testid="deploy-button"
            >
              {isDeploying ? DEPLOY_RUNNING_LABEL : 'Deploy'}
            </Button>
          </Group>
        </Group>
      </div>

      {deployOutcome && <AppDeployPanel outcome={deployOutcome} onOpenMenu={openIssue} onClose={() => setDeployOutcome(null)} />}

      {loadError && (
        <Paper withBorder radius="lg" p="lg">
          <Text c="red.8">{loadError.message}</Text>
          <Button mt="sm" size="xs" variant="default" onClick={() => void Promise.all([appQuery.refetch(), menusQuery.refetch()])}>
            Try again
          </Button>
        </Paper>
      )}

      <div className={classes.layout}>
        <Stack gap="sm" component="section" aria-label="Menu list">
          <Group gap="sm" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label="Filter menus"
              placeholder="Identifier or text"
              leftSection={<IconSearch size={16} />}
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
              style={{ flex: 1 }}
              description={
                query.trim().length > 0 && query.trim().length < FILTER_MIN_LENGTH
                  ? `Type at least ${FILTER_MIN_LENGTH} characters to filter`
                  : isFiltering
                    ? `${visibleItems.length} of ${items.length} menus`
                    : undefined
              }
              inputWrapperOrder={['input', 'description']}
            />
            <Tooltip label={isOrderChanged ? 'Save the new order' : 'The order is saved'} withArrow>
              <Button variant={isOrderChanged ? 'filled' : 'default'} color={isOrderChanged ? 'orange' : undefined} onClick={() => void saveOrder()} loading={isSavingOrder} disabled={menus.length === 0}>
                Save order
              </Button>
            </Tooltip>
          </Group>
          {isOrderChanged && (
            <Text size="xs" c="orange.9" data-testid="order-unsaved">
              The order changed. Save it so callers see the menus in this order.
            </Text>
          )}
          {menusQuery.isPending ? (
            <Stack gap="sm" aria-busy="true" aria-label="Loading the menus">
              <Skeleton height={72} radius="md" />
              <Skeleton height={72} radius="md" />
              <Skeleton height={72} radius="md" />
            </Stack>
          ) : items.length === 0 ? (
            <Paper withBorder radius="lg" p="xl" data-testid="menu-list-empty">
              <Stack align="center" gap="sm">
                <IconListDetails size={30} color="var(--mantine-color-gray-5)" />
                <Text fw={600}>No menus yet</Text>
                <Text size="sm" c="dimmed" ta="center">
                  Add the first menu: the screen callers see when they dial {app?.shortCode ?? 'your code'}.
                </Text>
                <MenuAddButton label="Add the first menu" isAlone onClick={() => open(NEW_MENU_KEY, { afterKey: null })} />
              </Stack>
            </Paper>
          ) : visibleItems.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="menu-filter-empty">
              No menu matches “{debouncedQuery.trim()}”.
            </Text>
          ) : (
            <MenuCardList
              items={visibleItems}
              activeKey={editing?.key ?? null}
              canDrag={!isFiltering}
              onMove={(from, to) => setLocalOrder(moveKey(orderIds, from, to))}
              onEdit={(item) => open(item.key)}
              onDelete={remove}
              onAddAfter={(item) => open(NEW_MENU_KEY, { afterKey: item?.key ?? null })}
            />
          )}
        </Stack>

        <div className={classes.editorColumn} id="menu-editor">
          {editing && editedMenu ? (
            <MenuEditForm
              key={`${editing.key}-${editing.nonce}`}
              app={previewApp}
              menu={editedMenu}
              menus={liteQuery.data ?? []}
              initialTab={editing.tab}
              showProblemsOnOpen={editing.showProblems}
              onSubmit={submit}
              onClose={close}
              onDirtyChange={setDirty}
            />
          ) : (
            <Paper withBorder radius="lg" p="xl" visibleFrom="lg" style={{ borderStyle: 'dashed' }} bg="transparent">
              <Stack align="center" gap={6} py="xl">
                <IconListDetails size={30} color="var(--mantine-color-gray-5)" />
                <Text fw={600}>No menu open</Text>
                <Text size="sm" c="dimmed" ta="center" maw={360}>
                  Press a menu’s edit button to change it, or a plus button to add a menu in that place.
                </Text>
              </Stack>
            </Paper>
          )}
        </div>
      </div>

      <AppVersionsDrawer appId={appId} opened={isVersionsOpen} onClose={() => setVersionsOpen(false)} />
    </Stack>
  );
}
