import { Anchor, Avatar, Burger, Button, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBook2, IconBuildingStore, IconChevronDown, IconExternalLink, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { SessionUser } from '../../../shared/api/auth.schema';
import { getRoles } from '../../../shared/roles';
import { BrandLogo } from '../../components/brand-logo';
import { getFirstName } from '../../lib/use-current-user';

export const DOCS_URL = '/api/docs';
const MANAGE_MERCHANT_PATH = '/merchant/manage-account';

interface ConsoleHeaderProps {
  user: SessionUser | null;
  isNavbarOpened: boolean;
  onToggleNavbar: () => void;
}

function getInitials(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

/** The top bar: a greeting, Account, Manage Merchant Account (merchants only), Logout and a Docs link. */
export function ConsoleHeader({ user, isNavbarOpened, onToggleNavbar }: ConsoleHeaderProps) {
  const isMerchant = !!user && getRoles(user).isMerchant;
  const firstName = getFirstName(user);

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={isNavbarOpened}
          onClick={onToggleNavbar}
          hiddenFrom="sm"
          size="sm"
          aria-label={isNavbarOpened ? 'Close navigation' : 'Open navigation'}
        />
        <Anchor component={Link} to="/get-started" underline="never" aria-label="Dialflow, get started">
          <BrandLogo size={28} />
        </Anchor>
      </Group>

      <Group gap={6} wrap="nowrap" visibleFrom="md">
        <Text fw={600} mr="xs" data-testid="greeting">
          Hello, {firstName}
        </Text>
        <Button
          component="a"
          href={DOCS_URL}
          target="_blank"
          rel="noopener noreferrer"
          variant="subtle"
          color="gray"
          leftSection={<IconBook2 size={16} />}
          rightSection={<IconExternalLink size={12} />}
        >
          Docs
        </Button>
        <Button component={Link} to="/account-profile" variant="subtle" color="gray" leftSection={<IconUserCircle size={16} />}>
          Account
        </Button>
        {isMerchant && (
          <Button component={Link} to={MANAGE_MERCHANT_PATH} variant="subtle" color="gray" leftSection={<IconBuildingStore size={16} />}>
            Manage Merchant Account
          </Button>
        )}
        <Button component={Link} to="/logout" variant="light" color="gray" leftSection={<IconLogout size={16} />}>
          Logout
        </Button>
      </Group>

      <Menu position="bottom-end" width={240} withArrow shadow="md">
        <Menu.Target>
          {/* Named by its content, 'Hello, Ama, Account menu': the greeting it shows (so voice control finds it by
              its text) and what it opens. The initials repeat the name for the eye only. */}
          <UnstyledButton hiddenFrom="md">
            <Group gap={8} wrap="nowrap">
              <Text fw={600} size="sm" truncate maw={140} data-testid="greeting-compact">
                Hello, {firstName}
              </Text>
              <VisuallyHidden>, Account menu</VisuallyHidden>
              <Avatar size={32} radius="xl" color="teal" aria-hidden="true">
                {getInitials(user?.fullName ?? '')}
              </Avatar>
              <IconChevronDown size={14} />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{user?.email}</Menu.Label>
          <Menu.Item component={Link} to="/account-profile" leftSection={<IconUserCircle size={16} />}>
            Account
          </Menu.Item>
          {isMerchant && (
            <Menu.Item component={Link} to={MANAGE_MERCHANT_PATH} leftSection={<IconBuildingStore size={16} />}>
              Manage Merchant Account
            </Menu.Item>
          )}
          <Menu.Item
            component="a"
            href={DOCS_URL}
            target="_blank"
            rel="noopener noreferrer"
            leftSection={<IconBook2 size={16} />}
            rightSection={<IconExternalLink size={12} />}
          >
            Docs
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item component={Link} to="/logout" color="red" leftSection={<IconLogout size={16} />}>
            Logout
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
