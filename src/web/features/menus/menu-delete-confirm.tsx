import { Alert, List, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle } from '@tabler/icons-react';
import { MISSING_MENU_TEXT } from '../../../engine';

export const DELETE_MENU_QUESTION = 'Are you sure you want to delete this menu?';

interface MenuDeleteConfirmInput {
  name: string;
  /** The menus whose rules go to this one, and those rules ('home: Rule 2'). */
  leadingHere: { menu: string; rules: string[] }[];
  onConfirm: () => Promise<void>;
}

/** Asks before a menu is deleted, naming the rules that would lead nowhere and what a caller would see. */
export function confirmMenuDelete({ name, leadingHere, onConfirm }: MenuDeleteConfirmInput) {
  modals.openConfirmModal({
    title: `Delete ${name}`,
    centered: true,
    children: (
      <Stack gap="sm">
        <Text size="sm">{DELETE_MENU_QUESTION}</Text>
        {leadingHere.length > 0 && (
          <Alert
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title={`${leadingHere.length === 1 ? 'A menu leads' : `${leadingHere.length} menus lead`} here`}
            data-testid="delete-menu-referrers"
          >
            <List size="sm" spacing={2}>
              {leadingHere.map((r) => (
                <List.Item key={r.menu}>
                  <b>{r.menu}</b>: {r.rules.join(', ')}
                </List.Item>
              ))}
            </List>
            <Text size="sm" mt={6}>
              Those rules will lead nowhere until you change them; a caller who picks one sees “{MISSING_MENU_TEXT}”
            </Text>
          </Alert>
        )}
      </Stack>
    ),
    labels: { confirm: 'Delete', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
