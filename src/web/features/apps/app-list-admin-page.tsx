import { Card, Code, EmptyState, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconApps, IconSearch } from '@tabler/icons-react';
import { useDeferredValue, useState } from 'react';
import { Navigate } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { getRoles } from '../../../shared/roles';
import { useCurrentUser } from '../console/use-current-user';
import { AppCloneDialog, type CloneSource } from './app-clone-dialog';
import { APP_LIST_PATH } from './app-create-page';
import { AppListError, AppListSkeleton } from './app-list-states';
import { AppRowActions } from './app-row-actions';
import { useApps, useDeleteAppConfirm } from './use-apps';

function matchesSearch(app: App, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [app.appName, app.companyName, app.userEmail, app.shortCode].some((field) => field.toLowerCase().includes(needle));
}

/** 'USSD Apps' for admins (spec: Admin-style app list): every account's apps with company and email. */
export function AppListAdminPage() {
  const user = useCurrentUser();
  const { data: apps, error, isPending, refetch } = useApps();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [cloneSource, setCloneSource] = useState<CloneSource | null>(null);
  const confirmDelete = useDeleteAppConfirm();

  if (user && !getRoles(user).isAdmin) return <Navigate to={APP_LIST_PATH} replace />;
  const shown = apps?.filter((app) => matchesSearch(app, deferredSearch)) ?? [];

  return (
    <Stack gap="xl">
      <Group justify="space-between" align="flex-end" gap="md">
        <div>
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            USSD Apps
          </Title>
          <Text c="dimmed" mt={6}>
            {apps ? `${apps.length} ${apps.length === 1 ? 'app' : 'apps'} across all accounts.` : 'Apps across all accounts.'}
          </Text>
        </div>
        <TextInput
          placeholder="Search apps..."
          aria-label="Search apps"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
          type="search"
        />
      </Group>

      {isPending && <AppListSkeleton />}
      {error && <AppListError message={error.message} onRetry={() => void refetch()} />}
      {apps && shown.length === 0 && (
        <Paper withBorder radius="lg" p="xl">
          <EmptyState
            icon={<IconApps size={28} />}
            withIndicatorBackground
            title={apps.length === 0 ? 'No apps yet' : 'No apps match your search'}
            description={apps.length === 0 ? 'Apps that any account creates appear here.' : `Nothing matches “${deferredSearch.trim()}”. Search by app name, company, email or shortcode.`}
          />
        </Paper>
      )}
      {shown.length > 0 && (
        <>
          <Paper withBorder radius="lg" visibleFrom="sm" style={{ overflow: 'hidden' }}>
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="sm" horizontalSpacing="lg" highlightOnHover aria-label="USSD Apps" data-testid="app-table">
                <Table.Thead bg="gray.0">
                  <Table.Tr>
                    <Table.Th>App Name</Table.Th>
                    <Table.Th>Company Name</Table.Th>
                    <Table.Th>User Email</Table.Th>
                    <Table.Th ta="right">Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((app) => (
                    <Table.Tr key={app.appId} data-app-id={app.appId}>
                      <Table.Td>
                        <Text fw={600} size="sm">
                          {app.appName}
                        </Text>
                        <Code fz="xs">{app.shortCode}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{app.companyName || '—'}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {app.userEmail}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <AppRowActions app={app} onClone={setCloneSource} onDelete={confirmDelete} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>

          <Stack gap="sm" hiddenFrom="sm" data-testid="app-cards">
            {shown.map((app) => (
              <Card key={app.appId} withBorder radius="md" padding="md">
                <Text fw={600}>{app.appName}</Text>
                <Text size="sm">{app.companyName || '—'}</Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {app.userEmail}
                </Text>
                <Group justify="space-between" mt="sm" gap="xs">
                  <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
                    {app.shortCode}
                  </Code>
                  <AppRowActions app={app} onClone={setCloneSource} onDelete={confirmDelete} />
                </Group>
              </Card>
            ))}
          </Stack>
        </>
      )}

      <AppCloneDialog source={cloneSource} onClose={() => setCloneSource(null)} canCloneIntoAccount />
    </Stack>
  );
}
