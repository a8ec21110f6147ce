import { Avatar, Badge, Card, Divider, Grid, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconDatabase, IconKey, IconLock, IconShieldLock } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import type { SessionUser } from '../../../shared/api/auth.schema';
import { getRoles } from '../../../shared/roles';
import { ApiKeyListPanel } from './api-key-list-panel';
import { PasswordChangeForm } from './password-change-form';
import { RetentionPanel } from './retention-panel';
import { TwoFactorPanel } from './two-factor-panel';
import { useCurrentUser } from '../../lib/use-current-user';

/** A readable name for the user's role (src/shared/roles.ts). */
export function describeRole(user: SessionUser): string {
  const roles = getRoles(user);
  if (roles.isSuperAdmin) return 'Super admin';
  if (roles.isAdmin) return 'Admin';
  if (roles.isMerchant) return 'Merchant';
  if (roles.isAgent) return 'Inbox agent';
  if (roles.isChatbotUser) return 'Chatbot user';
  return 'Private user';
}

function ProfileDetail({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Text>
    </div>
  );
}

/** The tabs a link may open with `?tab=`. */
const TABS = ['change-password', 'two-factor', 'retention'] as const;

export function AccountProfilePage() {
  const user = useCurrentUser();
  // An inbox agent has no API keys (the server refuses them every call but the inbox's and their own sign-in's).
  const isAgent = !!user && getRoles(user).isAgent;
  const [searchParams] = useSearchParams();
  const initials = (user?.fullName ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0])
    .slice(0, 2)
    .join('')
    .toUpperCase();

  return (
    <Stack gap="xl">
      <div>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          Account Settings
        </Title>
        <Text c="dimmed" mt={6}>
          {isAgent
            ? 'Your profile, password and two-factor sign-in.'
            : 'Your profile, sign-in details, two-factor sign-in, API keys and how long your data is kept.'}
        </Text>
      </div>
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="profile-heading">
            <Group gap="md" wrap="nowrap" mb="md">
              <Avatar size={52} radius="xl" color="teal">
                {initials || '?'}
              </Avatar>
              <div style={{ minWidth: 0 }}>
                <Text fw={700} id="profile-heading" truncate>
                  {user?.fullName}
                </Text>
                {user && (
                  <Badge variant="light" mt={4}>
                    {describeRole(user)}
                  </Badge>
                )}
              </div>
            </Group>
            <Divider mb="md" />
            <Stack gap="sm" data-testid="profile-details">
              <ProfileDetail label="Full name" value={user?.fullName ?? ''} />
              <ProfileDetail label="Email" value={user?.email ?? ''} />
              <ProfileDetail label="Mobile number" value={user?.mobileNumber ?? ''} />
              <ProfileDetail label="Company" value={user?.companyName ?? ''} />
              <ProfileDetail label="Role" value={user ? describeRole(user) : ''} />
              {user?.merchantName && <ProfileDetail label="Merchant" value={user.merchantName} />}
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Card withBorder radius="lg" padding="lg">
            <Tabs defaultValue={TABS.find((tab) => tab === searchParams.get('tab')) ?? 'change-password'}>
              <Tabs.List mb="lg">
                <Tabs.Tab value="change-password" leftSection={<IconLock size={16} />}>
                  Change Password
                </Tabs.Tab>
                <Tabs.Tab value="two-factor" leftSection={<IconShieldLock size={16} />}>
                  Two-factor
                </Tabs.Tab>
                {!isAgent && (
                  <Tabs.Tab value="api-keys" leftSection={<IconKey size={16} />}>
                    API keys
                  </Tabs.Tab>
                )}
                {!isAgent && (
                  <Tabs.Tab value="retention" leftSection={<IconDatabase size={16} />}>
                    Retention
                  </Tabs.Tab>
                )}
              </Tabs.List>
              <Tabs.Panel value="change-password">
                <PasswordChangeForm />
              </Tabs.Panel>
              <Tabs.Panel value="two-factor">
                <TwoFactorPanel />
              </Tabs.Panel>
              {!isAgent && (
                <Tabs.Panel value="api-keys">
                  <ApiKeyListPanel />
                </Tabs.Panel>
              )}
              {!isAgent && (
                <Tabs.Panel value="retention">
                  <RetentionPanel />
                </Tabs.Panel>
              )}
            </Tabs>
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
