import { Button, Group, Skeleton, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconListDetails, IconSearch } from '@tabler/icons-react';
import type { App } from '../../../shared/api/apps.schema';
import { MenuAddButton, MenuCardList } from './menu-card-list';
import { FILTER_MIN_LENGTH, NEW_MENU_KEY, SAVE_ORDER_FILTERED_HINT, type MenuListItem } from './menu-list-order';
import { MENU_LIST_ID, type MenuOpenOptions } from './use-menu-editor';
import type { useMenuList } from './use-menu-list';
import { EmptyPanel } from '../../components/list-states';

interface MenuListPanelProps {
  list: ReturnType<typeof useMenuList>;
  isPending: boolean;
  /** Whether the app has saved menus (Save order has nothing to save without). */
  hasMenus: boolean;
  /** Undefined while it loads. */
  app: App | undefined;
  activeKey: string | null;
  isSavingOrder: boolean;
  onSaveOrder: () => void;
  onOpen: (key: string, options?: MenuOpenOptions) => void;
  onDelete: (item: MenuListItem) => void;
}

/** The menu list: the filter, Save order with why it is off, and the cards (or the loading, empty and no-match states). */
export function MenuListPanel({
  list,
  isPending,
  hasMenus,
  app,
  activeKey,
  isSavingOrder,
  onSaveOrder,
  onOpen,
  onDelete,
}: MenuListPanelProps) {
  const { query, isFiltering, isOrderChanged, items, visibleItems } = list;
  return (
    <Stack gap="sm" component="section" aria-label="Menu list" id={MENU_LIST_ID} tabIndex={-1}>
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <TextInput
          aria-label="Filter menus"
          placeholder="Identifier or text"
          leftSection={<IconSearch size={16} />}
          value={query}
          onChange={(e) => list.setQuery(e.currentTarget.value)}
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
        <Tooltip
          label={isFiltering ? SAVE_ORDER_FILTERED_HINT : isOrderChanged ? 'Save the new order' : 'The order is saved'}
          withArrow
          multiline
          maw={260}
        >
          {/* The span takes the hover (a disabled button gets no pointer events), so the tooltip says why it is off. */}
          <span data-testid="save-order-wrapper">
            <Button
              variant={isOrderChanged && !isFiltering ? 'filled' : 'default'}
              color={isOrderChanged && !isFiltering ? 'orange' : undefined}
              onClick={onSaveOrder}
              loading={isSavingOrder}
              disabled={!hasMenus || isFiltering}
              style={isFiltering ? { pointerEvents: 'none' } : undefined}
            >
              Save order
            </Button>
          </span>
        </Tooltip>
      </Group>
      {isFiltering && (
        <Text size="xs" c="dimmed" data-testid="save-order-hint">
          {SAVE_ORDER_FILTERED_HINT}
        </Text>
      )}
      {isOrderChanged && (
        <Text size="xs" c="orange.9" data-testid="order-unsaved">
          The order changed. Save it so callers see the menus in this order.
        </Text>
      )}
      {isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading the menus">
          <Skeleton height={72} radius="md" />
          <Skeleton height={72} radius="md" />
          <Skeleton height={72} radius="md" />
        </Stack>
      ) : items.length === 0 ? (
        <EmptyPanel
          testId="menu-list-empty"
          icon={<IconListDetails size={28} />}
          title="No menus yet"
          description={
            app?.channel === 'whatsapp'
              ? 'Add the first menu: the message customers get when they write to the bot.'
              : `Add the first menu: the screen callers see when they dial ${app?.shortCode ?? 'your code'}.`
          }
          action={<MenuAddButton label="Add the first menu" isAlone onClick={() => onOpen(NEW_MENU_KEY, { afterKey: null })} />}
        />
      ) : visibleItems.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="lg" data-testid="menu-filter-empty">
          No menu matches “{list.debouncedQuery.trim()}”.
        </Text>
      ) : (
        <MenuCardList
          items={visibleItems}
          activeKey={activeKey}
          canDrag={!isFiltering}
          onMove={list.moveMenu}
          onEdit={(item) => onOpen(item.key)}
          onDelete={onDelete}
          onFixRules={(item) => onOpen(item.key, { tab: 'navigation', showProblems: true })}
          onAddAfter={(item) => onOpen(NEW_MENU_KEY, { afterKey: item?.key ?? null })}
        />
      )}
    </Stack>
  );
}
