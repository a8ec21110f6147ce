import { Badge, Button, Checkbox, Code, Group, Stack, Text } from '@mantine/core';
import { showToast } from '../../lib/toast';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { isInAudience } from '../../../shared/roles';
import { PageHeader } from '../../components/page-header';
import { AppCloneDialog, type CloneSource } from './app-clone-dialog';
import { AppImportButton } from './app-import-dialog';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { AppListSkeleton } from './app-list-states';
import { type AppListColumn, AppListTable } from './app-list-table';
import { useApps, useDeleteAppConfirm } from './use-apps';
import { NameText } from '../../components/name-text';
import { useCurrentUser } from '../../lib/use-current-user';

export const GET_STARTED_PATH = '/get-started';
export const APP_LIST_ADMIN_PATH = '/app-list-admin';

function TemplateTagCheckbox({ app }: { app: App }) {
  return (
    <Checkbox
      checked={app.useTemplateTag}
      readOnly
      tabIndex={-1}
      aria-label={app.useTemplateTag ? 'Template formatted' : 'Not template formatted'}
      styles={{ input: { cursor: 'default' } }}
    />
  );
}

const COLUMNS: AppListColumn[] = [
  {
    header: 'App Name',
    cellProps: { maw: 360 },
    render: (app) => (
      <>
        <NameText fw={600} size="sm" maw={360}>
          {app.appName}
        </NameText>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {app.description}
        </Text>
      </>
    ),
  },
  { header: 'Shortcode', render: (app) => <Code fz="sm">{app.shortCode}</Code> },
  {
    header: 'Template Tag',
    align: 'center',
    render: (app) => (
      <Group justify="center">
        <TemplateTagCheckbox app={app} />
      </Group>
    ),
  },
];

/** 'My USSD Apps' (List of USSD Apps). A user with no apps is sent to /get-started. */
export function AppListPage() {
  const user = useCurrentUser();
  const readsEveryApp = !!user && !isInAudience('ownAppsOnly', user);
  const { data: apps, error, isPending, refetch } = useApps();
  const [cloneSource, setCloneSource] = useState<CloneSource | null>(null);
  const confirmDelete = useDeleteAppConfirm();
  const isEmpty = !readsEveryApp && apps?.length === 0;

  useEffect(() => {
    if (isEmpty)
      showToast({
        id: 'no-apps',
        color: 'blue',
        title: 'No apps yet',
        message: 'Create your first app, or start from a template.',
      });
  }, [isEmpty]);

  // Admins who read every account's apps have the cross-account list instead (the sidebar shows them only that).
  if (readsEveryApp) return <Navigate to={APP_LIST_ADMIN_PATH} replace />;
  if (isEmpty) return <Navigate to={GET_STARTED_PATH} replace />;

  return (
    <Stack gap="xl">
      <PageHeader
        title="My USSD Apps"
        description={
          apps
            ? `${apps.length} ${apps.length === 1 ? 'app' : 'apps'}. Design menus, change settings, or copy an app to start a new one.`
            : 'Your apps and their shortcodes.'
        }
        action={
          <Group gap="sm">
            <AppImportButton />
            <Button component={Link} to="/create-app" leftSection={<IconPlus size={18} />}>
              New App
            </Button>
          </Group>
        }
      />

      {isPending && <AppListSkeleton />}
      {error && <LoadErrorAlert title="Apps not loaded" message={error.message} onRetry={() => void refetch()} />}
      {apps && apps.length > 0 && (
        <AppListTable
          apps={apps}
          label="My USSD Apps"
          columns={COLUMNS}
          renderCard={(app) => (
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <div style={{ minWidth: 0 }}>
                <NameText fw={600}>{app.appName}</NameText>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {app.description}
                </Text>
              </div>
              {app.useTemplateTag && (
                <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                  Template
                </Badge>
              )}
            </Group>
          )}
          onClone={setCloneSource}
          onDelete={confirmDelete}
        />
      )}

      {/* A MERCHANT or DEVELOPER admin clones their own apps into the merchants assigned to them. */}
      <AppCloneDialog
        source={cloneSource}
        onClose={() => setCloneSource(null)}
        canCloneIntoAccount={!!user && isInAudience('app.cloneIntoMerchant', user)}
      />
    </Stack>
  );
}
