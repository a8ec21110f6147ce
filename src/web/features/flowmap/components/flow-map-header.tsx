import { Button, Group, SegmentedControl, Switch } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BackLink } from '../../../components/back-link';
import type { App } from '../../../../shared/api/apps.schema';
import { AppScreenTitle } from '../../apps/app-screen-title';
import type { FlowDirection } from '../flow-graph';

interface FlowMapHeaderProps {
  appId: string;
  app: App | undefined;
  showBack: boolean;
  onShowBackChange: (showBack: boolean) => void;
  direction: FlowDirection;
  onDirectionChange: (direction: FlowDirection) => void;
}

/** The screen's title with the view's settings (Back links, layout direction) and the way back to the menu list. */
export function FlowMapHeader({ appId, app, showBack, onShowBackChange, direction, onDirectionChange }: FlowMapHeaderProps) {
  return (
    <div>
      <BackLink to={`/app/design/${encodeURIComponent(appId)}`} label="Menu list" />
      <Group justify="space-between" align="flex-end" mt={6} gap="md">
        <AppScreenTitle screen="Flow map" app={app} />
        <Group gap="sm">
          <Switch label="Back links" checked={showBack} onChange={(e) => onShowBackChange(e.currentTarget.checked)} size="sm" />
          <SegmentedControl
            aria-label="Layout direction"
            size="xs"
            value={direction}
            onChange={(v) => onDirectionChange(v as FlowDirection)}
            data={[
              { value: 'TB', label: 'Top to bottom' },
              { value: 'LR', label: 'Left to right' },
            ]}
          />
          <Button
            component={Link}
            to={`/app/design/${encodeURIComponent(appId)}`}
            variant="default"
            leftSection={<IconListDetails size={18} />}
          >
            Menu list
          </Button>
        </Group>
      </Group>
    </div>
  );
}
