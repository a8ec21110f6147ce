import { Badge, NavLink, Skeleton, Stack } from '@mantine/core';
import {
  IconAddressBook,
  IconApps,
  IconBrandWhatsapp,
  IconBuildingStore,
  IconCode,
  IconCreditCard,
  IconHash,
  IconHierarchy2,
  IconInbox,
  IconLayoutGrid,
  IconListNumbers,
  IconMail,
  IconMailbox,
  IconMessage,
  IconPlugConnected,
  IconCalendarDollar,
  IconPoint,
  IconReceipt,
  IconRocket,
  IconSettings,
  IconShoppingCart,
  IconSpeakerphone,
  IconSquarePlus,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { SessionUser } from '../../../shared/api/auth.schema';
import { getSidebar, type SidebarEntry } from '../../../shared/roles';
import { formatUnread, INBOX_PATH, useInboxUnread } from '../inbox/inbox.api';

/** Icons are the web's business; the entries themselves come only from getSidebar in shared/roles.ts. */
const ICONS: Record<string, Icon> = {
  'Get Started': IconRocket,
  'Create App': IconSquarePlus,
  'My USSD Apps': IconApps,
  'USSD Apps': IconApps,
  'My Custom Actions': IconCode,
  'Sub-flows': IconHierarchy2,
  Templates: IconLayoutGrid,
  'Buy USSD ShortCode': IconShoppingCart,
  'My USSD Extensions': IconHash,
  'SMS Outbox': IconMessage,
  'WhatsApp Bots': IconBrandWhatsapp,
  Inbox: IconInbox,
  Contacts: IconAddressBook,
  Campaigns: IconSpeakerphone,
  'Merchant Management': IconBuildingStore,
  'ShortCode Providers': IconPlugConnected,
  'Contact Requests': IconMail,
  'Mail Outbox': IconMailbox,
  Subscriptions: IconCalendarDollar,
  'Available USSD Extensions': IconListNumbers,
  'User Management': IconUsersGroup,
  'Manage Merchant Account': IconSettings,
  'Merchant Transactions': IconReceipt,
  'Account Billing': IconCreditCard,
};

const isActivePath = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

interface ConsoleSidebarProps {
  user: SessionUser | null;
  /** Called after a link is followed, so the phone drawer closes. */
  onNavigate?: () => void;
}

export function ConsoleSidebar({ user, onNavigate }: ConsoleSidebarProps) {
  const { pathname } = useLocation();
  const entries = user ? getSidebar(user) : [];
  const unread = useInboxUnread(entries.some((entry) => entry.path === INBOX_PATH));
  if (!user) {
    return (
      <Stack gap="xs" aria-busy="true">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} height={30} radius="sm" />
        ))}
      </Stack>
    );
  }

  function renderLink(label: string, path: string, entryProps: Record<string, string>, icon?: ReactNode) {
    // The inbox's unread messages, beside its entry (and said with it to a screen reader).
    const count =
      path === INBOX_PATH && unread.count > 0 ? (
        <Badge size="sm" color="teal" aria-label={`${formatUnread(unread)} unread`} data-testid="sidebar-inbox-unread">
          {formatUnread(unread)}
        </Badge>
      ) : undefined;
    return (
      <NavLink
        key={path}
        component={Link}
        to={path}
        label={label}
        leftSection={icon}
        rightSection={count}
        active={isActivePath(pathname, path)}
        aria-current={isActivePath(pathname, path) ? 'page' : undefined}
        onClick={onNavigate}
        {...entryProps}
      />
    );
  }

  function renderEntry(entry: SidebarEntry) {
    const Icon = ICONS[entry.label] ?? IconPoint;
    const icon = <Icon size={18} stroke={1.6} />;
    if (entry.children) {
      const hasActiveChild = entry.children.some((child) => isActivePath(pathname, child.path));
      return (
        <NavLink
          key={entry.label}
          label={entry.label}
          leftSection={icon}
          defaultOpened={hasActiveChild}
          component="button"
          type="button"
          data-sidebar-entry={entry.label}
        >
          {entry.children.map((child) => renderLink(child.label, child.path, { 'data-sidebar-child': child.label }))}
        </NavLink>
      );
    }
    return renderLink(entry.label, entry.path ?? '', { 'data-sidebar-entry': entry.label }, icon);
  }

  return (
    <nav aria-label="Main navigation">
      <Stack gap={2}>{entries.map(renderEntry)}</Stack>
    </nav>
  );
}
