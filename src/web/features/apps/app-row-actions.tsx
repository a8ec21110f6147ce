import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconChartBar, IconCopy, IconPencil, IconSettings, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { hasScreen } from '../../lib/routes';

export const designerPath = (appId: string) => `/app/design/${encodeURIComponent(appId)}`;
export const dashboardPath = (appId: string) => `/app/dashboard/${encodeURIComponent(appId)}`;
export const settingsPath = (appId: string) => `/app-settings/${encodeURIComponent(appId)}`;

interface AppRowActionsProps {
  app: App;
  onClone: (app: App) => void;
  onDelete: (app: App) => void;
}

/** Designer (only once the designer screen exists), settings, clone and delete for one app. */
export function AppRowActions({ app, onClone, onDelete }: AppRowActionsProps) {
  const designer = designerPath(app.appId);
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {hasScreen(designer) && (
        <Tooltip label="Design menus" withArrow>
          <ActionIcon component={Link} to={designer} variant="subtle" size="lg" aria-label={`Design ${app.appName}`}>
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {hasScreen(dashboardPath(app.appId)) && (
        <Tooltip label="Dashboard, logs and sessions" withArrow>
          <ActionIcon
            component={Link}
            to={dashboardPath(app.appId)}
            variant="subtle"
            color="teal"
            size="lg"
            aria-label={`Monitor ${app.appName}`}
          >
            <IconChartBar size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      <Tooltip label="Settings" withArrow>
        <ActionIcon
          component={Link}
          to={settingsPath(app.appId)}
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={`Settings of ${app.appName}`}
        >
          <IconSettings size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Clone" withArrow>
        <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => onClone(app)} aria-label={`Clone ${app.appName}`}>
          <IconCopy size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete" withArrow>
        <ActionIcon variant="subtle" color="red" size="lg" onClick={() => onDelete(app)} aria-label={`Delete ${app.appName}`}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
