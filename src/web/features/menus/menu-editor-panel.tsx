import { Paper, Stack, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { isBrokenTargetIssue, type MenuBody, type MenuLite } from '../../../shared/app';
import type { LintIssue } from '../../../engine';
import classes from './menus.module.css';
import { MenuEditForm, type MenuSubmitResult } from './menu-edit-form';
import type { MenuDraft } from './menu-form-state';
import type { PreviewApp } from './menu-screen-preview';
import type { MenuEditing } from './use-menu-editor';

interface MenuEditorPanelProps {
  app: PreviewApp;
  editing: MenuEditing | null;
  menu: MenuDraft | null;
  liteMenus: MenuLite[];
  lintIssues: LintIssue[];
  onSubmit: (body: MenuBody, opened: MenuDraft) => Promise<MenuSubmitResult>;
  onClose: () => void;
  onDirtyChange: (isDirty: boolean) => void;
}

/** The editor column: the open menu's form (its broken gotos marked), or a note saying how to open one. */
export function MenuEditorPanel({ app, editing, menu, liteMenus, lintIssues, onSubmit, onClose, onDirtyChange }: MenuEditorPanelProps) {
  return (
    <div className={classes.editorColumn} id="menu-editor">
      {editing && menu ? (
        <MenuEditForm
          key={`${editing.key}-${editing.nonce}`}
          app={app}
          menu={menu}
          menus={liteMenus}
          brokenTargets={lintIssues.filter((i) => i.menuId === editing.key && isBrokenTargetIssue(i))}
          initialTab={editing.tab}
          showProblemsOnOpen={editing.showProblems}
          onSubmit={onSubmit}
          onClose={onClose}
          onDirtyChange={onDirtyChange}
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
  );
}
