import { Code, EmptyState, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconApps, IconSearch } from '@tabler/icons-react';
import { useDeferredValue, useState } from 'react';
import { Navigate } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { isInAudience } from '../../../shared/roles';
import { AppCloneDialog, type CloneSource } from './app-clone-dialog';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { AppListSkeleton } from './app-list-states';
import { type AppListColumn, AppListTable } from './app-list-table';
import { useApps, useDeleteAppConfirm } from './use-apps';
import { NameText } from '../../components/name-text';
import { APP_LIST_PATH } from '../../lib/paths';
import { useCurrentUser } from '../../lib/use-current-user';

function matchesSearch(app: App, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return [app.appName, app.companyName, app.userEmail, app.shortCode].some((field) => field.toLowerCase().includes(needle));
}

const COLUMNS: AppListColumn[] = [
  {
    header: 'App Name',
    render: (app) => (
      <>
        <NameText fw={600} size="sm" maw={320}>
          {app.appName}
        </NameText>
        <Code fz="xs">{app.shortCode}</Code>
      </>
    ),
  },
  { header: 'Company Name', render: (app) => <Text size="sm">{app.companyName || '—'}</Text> },
  {
    header: 'User Email',
    render: (app) => (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {app.userEmail}
      </Text>
    ),
  },
];

/**
 * 'USSD Apps' for admins whose roles read every account's apps (the admin app list), with company and email.
 * The row actions are those the role table gives over other accounts' apps: a SUPPORT admin only reads and clones.
 */
export function AppListAdminPage() {
  const user = useCurrentUser();
  const { data: apps, error, isPending, refetch } = useApps();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [cloneSource, setCloneSource] = useState<CloneSource | null>(null);
  const confirmDelete = useDeleteAppConfirm();

  if (user && !isInAudience('tenantApp.read', user)) return <Navigate to={APP_LIST_PATH} replace />;
  const canEditAny = !!user && isInAudience('tenantApp.edit', user);
  const canMonitorAny = !!user && isInAudience('tenantSession.read', user);
  const getReach = (app: App) => {
    const isOwn = app.userEmail === user?.email;
    return { canEdit: isOwn || canEditAny, canMonitor: isOwn || canMonitorAny };
  };
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
      {error && <LoadErrorAlert title="Apps not loaded" message={error.message} onRetry={() => void refetch()} />}
      {apps && shown.length === 0 && (
        <Paper withBorder radius="lg" p="xl">
          <EmptyState
            icon={<IconApps size={28} />}
            withIndicatorBackground
            title={apps.length === 0 ? 'No apps yet' : 'No apps match your search'}
            description={
              apps.length === 0
                ? 'Apps that any account creates appear here.'
                : `Nothing matches “${deferredSearch.trim()}”. Search by app name, company, email or shortcode.`
            }
          />
        </Paper>
      )}
      {shown.length > 0 && (
        <AppListTable
          apps={shown}
          label="USSD Apps"
          columns={COLUMNS}
          minWidth={760}
          renderCard={(app) => (
            <>
              <NameText fw={600}>{app.appName}</NameText>
              <Text size="sm">{app.companyName || '—'}</Text>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {app.userEmail}
              </Text>
            </>
          )}
          onClone={setCloneSource}
          onDelete={confirmDelete}
          getReach={getReach}
        />
      )}

      <AppCloneDialog
        source={cloneSource}
        onClose={() => setCloneSource(null)}
        canCloneIntoAccount={!!user && isInAudience('app.cloneIntoMerchant', user)}
      />
    </Stack>
  );
}
