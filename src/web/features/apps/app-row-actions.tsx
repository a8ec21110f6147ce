import { Group } from '@mantine/core';
import { IconChartBar, IconCopy, IconDownload, IconPencil, IconSettings, IconTrash } from '@tabler/icons-react';
import type { App } from '../../../shared/api/apps.schema';
import { RowAction } from '../../components/row-action';
import { useAppExport } from './use-app-export';
import { designerPath, monitoringPath, settingsPath } from '../../lib/paths';

/**
 * What the signed-in user may do with an app of the list: change it (design, settings, export, delete) and read
 * its sessions (the dashboard). Their own apps: both; another account's: as their admin roles say.
 */
export interface AppReach {
  canEdit: boolean;
  canMonitor: boolean;
}

interface AppRowActionsProps {
  app: App;
  onClone: (app: App) => void;
  onDelete: (app: App) => void;
  reach?: AppReach;
}

/** Designer, settings, export, clone and delete for one app, as far as `reach` goes. */
export function AppRowActions({ app, onClone, onDelete, reach = { canEdit: true, canMonitor: true } }: AppRowActionsProps) {
  const designer = designerPath(app.appId);
  const exportToFile = useAppExport();
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {reach.canEdit && <RowAction label="Design menus" ariaLabel={`Design ${app.appName}`} icon={IconPencil} to={designer} />}
      {reach.canMonitor && (
        <RowAction
          label="Dashboard, logs and sessions"
          ariaLabel={`Monitor ${app.appName}`}
          icon={IconChartBar}
          color="teal"
          to={monitoringPath('dashboard', app.appId)}
        />
      )}
      {reach.canEdit && (
        <>
          <RowAction
            label="Settings"
            ariaLabel={`Settings of ${app.appName}`}
            icon={IconSettings}
            color="gray"
            to={settingsPath(app.appId)}
          />
          <RowAction
            label="Export to a file"
            ariaLabel={`Export ${app.appName}`}
            icon={IconDownload}
            color="gray"
            onClick={() => void exportToFile(app)}
          />
        </>
      )}
      <RowAction label="Clone" ariaLabel={`Clone ${app.appName}`} icon={IconCopy} color="gray" onClick={() => onClone(app)} />
      {reach.canEdit && (
        <RowAction label="Delete" ariaLabel={`Delete ${app.appName}`} icon={IconTrash} color="red" onClick={() => onDelete(app)} />
      )}
    </Group>
  );
}
