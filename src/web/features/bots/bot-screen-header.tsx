import { Button, Group } from '@mantine/core';
import { IconChartBar, IconMessageChatbot, IconPencil } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BackLink } from '../../components/back-link';
import { AppScreenTitle } from '../apps/app-screen-title';
import { useApp } from '../apps/use-apps';
import { monitoringPath, BOT_LIST_PATH, botDesignerPath, botSimulatorPath } from '../../lib/paths';

/** The title of a bot's screen (its name) under the way back to the list, with its designer, simulator and monitoring. */
export function BotScreenHeader({ appId, screen }: { appId: string; screen: string }) {
  const { data: app } = useApp(appId);
  return (
    <div>
      <BackLink to={BOT_LIST_PATH} label="WhatsApp Bots" />
      <Group justify="space-between" align="flex-end" mt={6} gap="md">
        <AppScreenTitle screen={screen} app={app} />
        <Group gap="sm">
          <Button component={Link} to={botDesignerPath(appId)} variant="default" leftSection={<IconPencil size={18} />}>
            Designer
          </Button>
          <Button component={Link} to={botSimulatorPath(appId)} variant="default" leftSection={<IconMessageChatbot size={18} />}>
            Chat simulator
          </Button>
          <Button component={Link} to={monitoringPath('dashboard', appId)} variant="default" leftSection={<IconChartBar size={18} />}>
            Dashboard
          </Button>
        </Group>
      </Group>
    </div>
  );
}
