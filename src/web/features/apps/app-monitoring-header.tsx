import { Button, Group, Tabs, Text, Title } from '@mantine/core';
import { IconDeviceMobile, IconPencil } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { hasScreen } from '../../lib/routes';
import { APP_LIST_PATH } from './app-create-page';
import { designerPath } from './app-row-actions';
import { useApp } from './use-apps';
import { BackLink } from '../../components/back-link';

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

/** The app's name (useApp, the query every screen of the app shares); '' until it answers. */
export function useAppName(appId: string): string {
  return useApp(appId).data?.appName ?? '';
}

interface AppMonitoringHeaderProps {
  appId: string;
  screen: MonitoringScreen;
  title: string;
  description?: string;
}

/** Title, the app's name, Designer/Emulator links and tabs between the app's monitoring screens. */
export function AppMonitoringHeader({ appId, screen, title, description }: AppMonitoringHeaderProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const tabListRef = useRef<HTMLDivElement>(null);
  const appName = useAppName(appId);
  // Each screen is its own page: one reached from these tabs gives the focus to its tab, as a tab list keeps it.
  const isFromTabs = (location.state as { fromMonitoringTabs?: boolean } | null)?.fromMonitoringTabs === true;
  useEffect(() => {
    if (isFromTabs) tabListRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  }, [isFromTabs]);
  const designer = designerPath(appId);
  return (
    <div>
      <BackLink to={APP_LIST_PATH} label="My USSD Apps" />
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
          <Button
            component={Link}
            to={`/app/emulator/${encodeURIComponent(appId)}`}
            variant="default"
            size="xs"
            leftSection={<IconDeviceMobile size={14} />}
          >
            Emulator
          </Button>
        </Group>
      </Group>
      {description && (
        <Text size="sm" c="dimmed" mt="xs">
          {description}
        </Text>
      )}
      <Tabs
        mt="md"
        value={screen}
        onChange={(value) => value && navigate(monitoringPath(value as MonitoringScreen, appId), { state: { fromMonitoringTabs: true } })}
        variant="pills"
        radius="xl"
      >
        <Tabs.List aria-label="App monitoring screens" ref={tabListRef}>
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
