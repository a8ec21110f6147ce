import { Badge, Group, Loader, Paper, Stack, Text, Timeline } from '@mantine/core';
import { EmptyState } from '@mantine/core';
import { IconActivity, IconBroadcast } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { isOk } from '../../lib/api';
import { findLiveItems } from '../../../shared/api/dashboard.calls';
import { call, queryKey } from '../../lib/call';
import type { LiveItem } from './dashboard.api';
import { AppMonitoringHeader } from '../apps/app-monitoring-header';
import { NetworkName } from '../../components/network-name';
import { SessionSourceBadge } from '../sessions/session-source-badge';
import { formatTime } from '../../lib/table-export';
import { useDelayPassed } from '../../lib/use-delay-passed';

export const LIVE_LOAD_DELAY_MS = 2000;
export const LIVE_REFRESH_MS = 4000;

/** Live data (/app/liveview/{id}): the app's open sessions, loaded 2 s after opening, refreshed while open. */
export function LiveDataPage() {
  const { id = '' } = useParams();
  const isReady = useDelayPassed(LIVE_LOAD_DELAY_MS);
  const { data, isFetched, dataUpdatedAt } = useQuery({
    queryKey: queryKey(findLiveItems, { params: { appId: id } }),
    queryFn: async (): Promise<LiveItem[]> => {
      const reply = await call(findLiveItems, { params: { appId: id } });
      // A failure shows no text of its own; the list stays empty.
      return isOk(reply) && Array.isArray(reply.data) ? reply.data : [];
    },
    enabled: isReady,
    refetchInterval: LIVE_REFRESH_MS,
  });
  const items = data ?? [];

  return (
    <Stack gap="lg">
      <AppMonitoringHeader
        appId={id}
        screen="live"
        title="Live Data"
        description="Sessions in progress right now; the list refreshes every few seconds."
      />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        {!isFetched ? (
          <Group gap="sm" aria-busy="true">
            <Loader size="sm" />
            <Text c="dimmed">Loading live sessions…</Text>
          </Group>
        ) : items.length === 0 ? (
          <EmptyState
            icon={<IconBroadcast size={28} />}
            withIndicatorBackground
            title="No live data found"
            description="Dial the app; open sessions show here."
            data-testid="live-empty"
          />
        ) : (
          <Stack gap="md">
            <Group justify="space-between">
              <Badge variant="light" color="teal" leftSection={<IconActivity size={12} />}>
                {items.length} active {items.length === 1 ? 'session' : 'sessions'}
              </Badge>
              <Text size="xs" c="dimmed">
                Updated {formatTime(new Date(dataUpdatedAt).toISOString())}
              </Text>
            </Group>
            <Timeline bulletSize={22} lineWidth={2} data-testid="live-timeline">
              {items.map((item) => (
                <Timeline.Item
                  key={item.id}
                  bullet={<IconBroadcast size={12} />}
                  title={<Text fw={600}>{item.mobile || 'Unknown number'}</Text>}
                  data-testid="live-item"
                >
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} mt={4}>
                    {item.menuText}
                  </Text>
                  <Group gap="xs" mt={6}>
                    <SessionSourceBadge environment={item.environment} gateway={item.gateway} />
                    <Badge variant="outline" size="sm">
                      <NetworkName network={item.network} />
                    </Badge>
                    <Text size="xs" c="dimmed">
                      Session {item.sessionId}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatTime(item.updatedAt)}
                    </Text>
                  </Group>
                </Timeline.Item>
              ))}
            </Timeline>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
