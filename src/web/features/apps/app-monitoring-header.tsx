import { Button, Group, Skeleton, Tabs, Text, Title } from '@mantine/core';
import { IconDeviceMobile, IconMessageChatbot, IconPencil } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useApp } from './use-apps';
import { BackLink } from '../../components/back-link';
import { getAppLinks, MONITORING_SCREENS, monitoringPath, type MonitoringScreen } from '../../lib/paths';

interface AppMonitoringHeaderProps {
  appId: string;
  screen: MonitoringScreen;
  title: string;
  description?: string;
}

/**
 * Title, the app's name, Designer/Emulator links and tabs between the app's monitoring screens. A WhatsApp bot's
 * (the same screens serve both) leads back to the bot list, its designer and its chat simulator.
 */
export function AppMonitoringHeader({ appId, screen, title, description }: AppMonitoringHeaderProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const tabListRef = useRef<HTMLDivElement>(null);
  const { data: app, isError } = useApp(appId);
  const appName = app?.appName ?? '';
  // Until the app answers, its channel (and so where its links go) is unknown: the links wait for it (a USSD
  // app's when it cannot be read).
  const links = app ? getAppLinks(app) : isError ? getAppLinks({ appId, channel: 'ussd' }) : null;
  // Each screen is its own page: one reached from these tabs gives the focus to its tab, as a tab list keeps it.
  const isFromTabs = (location.state as { fromMonitoringTabs?: boolean } | null)?.fromMonitoringTabs === true;
  useEffect(() => {
    if (isFromTabs) tabListRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  }, [isFromTabs]);
  return (
    <div>
      {links ? <BackLink to={links.list.path} label={links.list.label} /> : <Skeleton height={20} width={120} />}
      <Group justify="space-between" align="flex-end" mt={6} gap="sm">
        <div style={{ minWidth: 0 }}>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {title}
          </Title>
          <Text c="dimmed" mt={4} truncate data-testid="monitoring-app-name">
            {appName || '\u00a0'}
          </Text>
        </div>
        {links && (
          <Group gap="xs">
            <Button component={Link} to={links.designer} variant="default" size="xs" leftSection={<IconPencil size={14} />}>
              Designer
            </Button>
            {links.tester && (
              <Button
                component={Link}
                to={links.tester.path}
                variant="default"
                size="xs"
                leftSection={links.isBot ? <IconMessageChatbot size={14} /> : <IconDeviceMobile size={14} />}
              >
                {links.tester.label}
              </Button>
            )}
          </Group>
        )}
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
          {MONITORING_SCREENS.map((s) => (
            <Tabs.Tab key={s.value} value={s.value}>
              {s.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </div>
  );
}
