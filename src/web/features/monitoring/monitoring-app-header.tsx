import { Anchor, Button, Group, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconDeviceMobile, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { isOk } from '../../lib/api';
import { hasScreen } from '../../lib/routes';
import { appQueryKey, getApp } from '../apps/apps.api';
import { APP_LIST_PATH } from '../apps/app-create-page';
import { designerPath } from '../apps/app-row-actions';

export type MonitoringScreen = 'live' | 'logs' | 'dashboard' | 'completed' | 'uncompleted' | 'search';

const SCREENS: { value: MonitoringScreen; label: string; path: (appId: string) => string }[] = [
  { value: 'live', label: 'Live', path: (appId) => `/app/liveview/${encodeURIComponent(appId)}` },
  { value: 'logs', label: 'Logs', path: (appId) => `/app/actionlogs/${encodeURIComponent(appId)}` },
  { value: 'dashboard', label: 'Dashboard', path: (appId) => `/app/dashboard/${encodeURIComponent(appId)}` },
  { value: 'completed', label: 'Completed', path: (appId) => `/app/completesession/${encodeURIComponent(appId)}` },
  { value: 'uncompleted', label: 'Uncompleted', path: (appId) => `/app/uncompletedsession/${encodeURIComponent(appId)}` },
  { value: 'search', label: 'Search', path: (appId) => `/app/search/${encodeURIComponent(appId)}` },
];

export const monitoringPath = (screen: MonitoringScreen, appId: string) => SCREENS.find((s) => s.value === screen)!.path(appId);

/** The app's name (GET /api/getAppByAppId, shared with the settings screen's cache); the id until it answers. */
export function useAppName(appId: string): string {
  const { data } = useQuery({
    queryKey: appQueryKey(appId),
    queryFn: async () => {
      const reply = await getApp(appId);
      if (isOk(reply) && reply.data) return reply.data;
      throw new Error(reply.message || 'The app could not be loaded.');
    },
  });
  return data?.appName ?? '';
}

interface MonitoringAppHeaderProps {
  appId: string;
  screen: MonitoringScreen;
  title: string;
  description?: string;
}

/** Title, the app's name, Designer/Emulator links and tabs between the app's monitoring screens. */
export function MonitoringAppHeader({ appId, screen, title, description }: MonitoringAppHeaderProps) {
  const navigate = useNavigate();
  const appName = useAppName(appId);
  const designer = designerPath(appId);
  return (
    <div>
      <Anchor component={Link} to={APP_LIST_PATH} size="sm" c="dimmed">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} /> My USSD Apps
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end" mt={6} gap="sm">
        <div style={{ minWidth: 0 }}>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {title}
          </Title>
          <Text c="dimmed" mt={4} truncate data-testid="monitoring-app-name">
            {appName || '\u00a0'}
          </Text>
        </div>
        <Group gap="xs">
          {hasScreen(designer) && (
            <Button component={Link} to={designer} variant="default" size="xs" leftSection={<IconPencil size={14} />}>
              Designer
            </Button>
          )}
          <Button component={Link} to={`/app/emulator/${encodeURIComponent(appId)}`} variant="default" size="xs" leftSection={<IconDeviceMobile size={14} />}>
            Emulator
          </Button>
        </Group>
      </Group>
      {description && (
        <Text size="sm" c="dimmed" mt="xs">
          {description}
        </Text>
      )}
      <Tabs mt="md" value={screen} onChange={(value) => value && navigate(monitoringPath(value as MonitoringScreen, appId))} variant="pills" radius="xl">
          <Tabs.List aria-label="App monitoring screens">
            {SCREENS.map((s) => (
              <Tabs.Tab key={s.value} value={s.value}>
                {s.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
    </div>
  );
}
