import { Badge, Button, Group, Loader, Text } from '@mantine/core';
import { IconDeviceMobile, IconHistory, IconRocket, IconSitemap } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { APP_LIST_PATH } from '../apps/app-create-page';
import { AppScreenTitle } from '../apps/app-screen-title';
import { BackLink } from '../../components/back-link';

export const emulatorPath = (appId: string) => `/app/emulator/${encodeURIComponent(appId)}`;
export const DEPLOY_RUNNING_LABEL = 'Deployment in progress';

interface MenuDesignHeaderProps {
  appId: string;
  /** Undefined while the app loads. */
  app: App | undefined;
  isDeploying: boolean;
  onDeploy: () => void;
  onOpenVersions: () => void;
}

/** The designer's title (the app's name, shortcode and live version) and its Flow map, Emulator, Versions and Deploy buttons. */
export function MenuDesignHeader({ appId, app, isDeploying, onDeploy, onOpenVersions }: MenuDesignHeaderProps) {
  return (
    <div>
      <BackLink to={APP_LIST_PATH} label="My USSD Apps" />
      <Group justify="space-between" align="flex-end" mt={6} gap="md">
        <AppScreenTitle screen="Menu Design View" app={app}>
          {app && (
            <Group gap={8} mt={4}>
              <Text size="sm" c="dimmed" ff="monospace">
                {app.shortCode}
              </Text>
              {app.liveVersion ? (
                <Badge size="sm" variant="light" color="teal">
                  Version {app.liveVersion} live
                </Badge>
              ) : (
                <Badge size="sm" variant="light" color="gray">
                  Not deployed yet
                </Badge>
              )}
            </Group>
          )}
        </AppScreenTitle>
        <Group gap="sm">
          <Button
            component={Link}
            to={`/app/design/${encodeURIComponent(appId)}/flow`}
            variant="default"
            leftSection={<IconSitemap size={18} />}
          >
            Flow map
          </Button>
          <Button component={Link} to={emulatorPath(appId)} variant="default" leftSection={<IconDeviceMobile size={18} />}>
            Emulator
          </Button>
          <Button variant="default" leftSection={<IconHistory size={18} />} onClick={onOpenVersions}>
            Versions
          </Button>
          <Button
            leftSection={isDeploying ? <Loader size={16} color="teal.9" /> : <IconRocket size={18} />}
            onClick={onDeploy}
            disabled={isDeploying}
            aria-busy={isDeploying}
            data-testid="deploy-button"
          >
            {isDeploying ? DEPLOY_RUNNING_LABEL : 'Deploy'}
          </Button>
        </Group>
      </Group>
    </div>
  );
}
