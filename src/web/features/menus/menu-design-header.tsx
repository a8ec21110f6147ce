import { Badge, Button, Group, Loader, Skeleton, Text } from '@mantine/core';
import {
  IconBrandWhatsapp,
  IconDeviceMobile,
  IconDownload,
  IconHistory,
  IconMessageChatbot,
  IconRocket,
  IconSitemap,
  IconTestPipe,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import type { App } from '../../../shared/api/apps.schema';
import { AppScreenTitle } from '../apps/app-screen-title';
import { useAppExport } from '../apps/use-app-export';
import { BackLink } from '../../components/back-link';
import { getAppLinks, testsPath } from '../../lib/paths';

export const DEPLOY_RUNNING_LABEL = 'Deployment in progress';

interface MenuDesignHeaderProps {
  appId: string;
  /** Undefined while the app loads. */
  app: App | undefined;
  isDeploying: boolean;
  onDeploy: () => void;
  onOpenVersions: () => void;
}

/**
 * The designer's title (the app's name, shortcode and live version) and its Flow map, Emulator, Tests, Versions and
 * Deploy buttons, and Export for a USSD app (a file to import elsewhere). A bot's leads back to the bot list and tries the bot in its chat simulator instead.
 */
export function MenuDesignHeader({ appId, app, isDeploying, onDeploy, onOpenVersions }: MenuDesignHeaderProps) {
  // Until the app answers, where its links go (its channel) is unknown.
  const links = app ? getAppLinks(app) : null;
  const exportToFile = useAppExport();
  return (
    <div>
      {links ? <BackLink to={links.list.path} label={links.list.label} /> : <Skeleton height={20} width={120} />}
      <Group justify="space-between" align="flex-end" mt={6} gap="md">
        <AppScreenTitle screen="Menu Design View" app={app}>
          {app && (
            <Group gap={8} mt={4}>
              {app.isSubflow ? (
                <Badge size="sm" variant="light" color="grape">
                  Sub-flow
                </Badge>
              ) : links?.isBot ? (
                <Badge size="sm" variant="light" color="green" leftSection={<IconBrandWhatsapp size={12} />}>
                  WhatsApp bot
                </Badge>
              ) : (
                <Text size="sm" c="dimmed" ff="monospace">
                  {app.shortCode}
                </Text>
              )}
              {app.isSubflow ? null : app.liveVersion ? (
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
          {links?.tester && (
            <Button
              component={Link}
              to={links.tester.path}
              variant="default"
              leftSection={links.isBot ? <IconMessageChatbot size={18} /> : <IconDeviceMobile size={18} />}
            >
              {links.tester.label}
            </Button>
          )}
          {app && !app.isSubflow && (
            <Button component={Link} to={testsPath(appId)} variant="default" leftSection={<IconTestPipe size={18} />}>
              Tests
            </Button>
          )}
          {app && !links?.isBot && !app.isSubflow && (
            <Button variant="default" leftSection={<IconDownload size={18} />} onClick={() => void exportToFile(app)}>
              Export
            </Button>
          )}
          <Button variant="default" leftSection={<IconHistory size={18} />} onClick={onOpenVersions}>
            Versions
          </Button>
          {/* A sub-flow is frozen by the deploys of the apps that enter it (docs/sub-flows.md). */}
          {!app?.isSubflow && (
            <Button
              leftSection={isDeploying ? <Loader size={16} color="teal.9" /> : <IconRocket size={18} />}
              // Looks disabled while a deploy runs but keeps the focus the deploy dialog hands back to it on closing (a
              // disabled button would drop it to the page, and a keyboard user would start over from the top).
              onClick={isDeploying ? undefined : onDeploy}
              data-disabled={isDeploying || undefined}
              aria-disabled={isDeploying}
              aria-busy={isDeploying}
              data-testid="deploy-button"
            >
              {isDeploying ? DEPLOY_RUNNING_LABEL : 'Deploy'}
            </Button>
          )}
        </Group>
      </Group>
    </div>
  );
}
