import { Button, Group, Stack, Text } from '@mantine/core';
import { IconFlag, IconTrash } from '@tabler/icons-react';
import type { LintIssue } from '../../../../engine';
import { isBrokenTargetIssue, type Menu, type MenuBody, type MenuLite } from '../../../../shared/app';
import { MenuEditForm, type MenuSubmitResult } from '../../menus/menu-edit-form';
import type { MenuDraft, MenuFormTab } from '../../menus/menu-form-state';
import type { PreviewApp } from '../../menus/menu-screen-preview';

export interface FlowPanelState {
  /** The menu's uniqueId, or null for a new menu. */
  menuId: string | null;
  tab: MenuFormTab;
  /** A fresh form each time a menu is opened, even the same one. */
  nonce: number;
}

interface FlowMenuPanelProps {
  app: PreviewApp;
  panel: FlowPanelState;
  /** The open menu (a saved one), or the new menu's draft. */
  menu: MenuDraft;
  saved: Menu | null;
  liteMenus: MenuLite[];
  lintIssues: LintIssue[];
  isBusy: boolean;
  onSubmit: (body: MenuBody, opened: MenuDraft) => Promise<MenuSubmitResult>;
  onClose: () => void;
  onDirtyChange: (isDirty: boolean) => void;
  onMakeFirst: (menu: Menu) => void;
  onDelete: (menu: Menu) => void;
}

/** The map's side panel: the menu list's four-tab form for one menu, with Make first and Delete for a saved one. */
export function FlowMenuPanel({
  app,
  panel,
  menu,
  saved,
  liteMenus,
  lintIssues,
  isBusy,
  onSubmit,
  onClose,
  onDirtyChange,
  onMakeFirst,
  onDelete,
}: FlowMenuPanelProps) {
  return (
    <Stack
      gap="xs"
      data-testid="flow-panel"
      id="menu-editor"
      aria-label={saved ? `Edit ${saved.userDefinedName}` : 'New menu'}
      role="region"
    >
      {saved ? (
        <Group justify={saved.isFirst ? 'space-between' : 'flex-end'} gap="xs" px={4}>
          {saved.isFirst && (
            <Text size="sm" c="dimmed">
              The first menu: sessions start here.
            </Text>
          )}
          <Group gap={6}>
            {!saved.isFirst && (
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconFlag size={14} />}
                disabled={isBusy}
                onClick={() => onMakeFirst(saved)}
              >
                Make first
              </Button>
            )}
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              leftSection={<IconTrash size={14} />}
              disabled={isBusy}
              onClick={() => onDelete(saved)}
            >
              Delete menu
            </Button>
          </Group>
        </Group>
      ) : (
        <Text size="sm" c="dimmed" px={4}>
          A new menu goes at the end of the menu list. Draw its rules on the map once it is saved.
        </Text>
      )}
      <MenuEditForm
        key={`${panel.menuId ?? 'new'}-${panel.nonce}`}
        app={app}
        menu={menu}
        menus={liteMenus}
        brokenTargets={saved ? lintIssues.filter((i) => i.menuId === saved.uniqueId && isBrokenTargetIssue(i)) : []}
        initialTab={panel.tab}
        onSubmit={onSubmit}
        onClose={onClose}
        onDirtyChange={onDirtyChange}
      />
    </Stack>
  );
}
