import { Group } from '@mantine/core';
import { IconChartBar, IconMessageChatbot, IconPencil, IconSettings, IconTrash } from '@tabler/icons-react';
import type { Bot } from '../../../shared/api/bots.schema';
import { RowAction } from '../../components/row-action';
import { monitoringPath, botDesignerPath, botSettingsPath, botSimulatorPath } from '../../lib/paths';

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
      <RowAction label="Design menus" ariaLabel={`Design ${bot.appName}`} icon={IconPencil} to={botDesignerPath(bot.appId)} />
      <RowAction
        label="Chat simulator"
        ariaLabel={`Chat with ${bot.appName} in the simulator`}
        icon={IconMessageChatbot}
        color="teal"
        to={botSimulatorPath(bot.appId)}
      />
      <RowAction
        label="Dashboard, logs and sessions"
        ariaLabel={`Monitor ${bot.appName}`}
        icon={IconChartBar}
        color="teal"
        to={monitoringPath('dashboard', bot.appId)}
      />
      <RowAction
        label="Settings and numbers"
        ariaLabel={`Settings of ${bot.appName}`}
        icon={IconSettings}
        color="gray"
        to={botSettingsPath(bot.appId)}
      />
      <RowAction label="Delete" ariaLabel={`Delete ${bot.appName}`} icon={IconTrash} color="red" onClick={() => onDelete(bot)} />
    </Group>
  );
}
