import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconChartBar, IconMessageChatbot, IconPencil, IconSettings, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Bot } from '../../../shared/api/bots.schema';
import { monitoringPath } from '../apps/app-monitoring-header';
import { botDesignerPath, botSettingsPath, botSimulatorPath } from './bots.api';

interface BotRowActionsProps {
  bot: Bot;
  onDelete: (bot: Bot) => void;
  /** At the row's end (a table's Actions column), or at the start (under the name on a phone). */
  justify?: 'flex-start' | 'flex-end';
}

/** Designer, chat simulator, monitoring, settings and delete for one bot. */
export function BotRowActions({ bot, onDelete, justify = 'flex-end' }: BotRowActionsProps) {
  return (
    <Group gap={2} wrap="nowrap" justify={justify} ml={justify === 'flex-start' ? -8 : 0}>
      <Tooltip label="Design menus" withArrow>
        <ActionIcon component={Link} to={botDesignerPath(bot.appId)} variant="subtle" size="lg" aria-label={`Design ${bot.appName}`}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Chat simulator" withArrow>
        <ActionIcon
          component={Link}
          to={botSimulatorPath(bot.appId)}
          variant="subtle"
          color="teal"
          size="lg"
          aria-label={`Chat with ${bot.appName} in the simulator`}
        >
          <IconMessageChatbot size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Dashboard, logs and sessions" withArrow>
        <ActionIcon
          component={Link}
          to={monitoringPath('dashboard', bot.appId)}
          variant="subtle"
          color="teal"
          size="lg"
          aria-label={`Monitor ${bot.appName}`}
        >
          <IconChartBar size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Settings and numbers" withArrow>
        <ActionIcon
          component={Link}
          to={botSettingsPath(bot.appId)}
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={`Settings of ${bot.appName}`}
        >
          <IconSettings size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete" withArrow>
        <ActionIcon variant="subtle" color="red" size="lg" onClick={() => onDelete(bot)} aria-label={`Delete ${bot.appName}`}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
