import { Alert, Group, Loader, Paper, Progress, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { AudienceReach } from '../../../shared/api/campaigns.schema';

interface ReachFigure {
  key: keyof Omit<AudienceReach, 'total'>;
  label: string;
  /** Any CSS colour: the bar's section and the figure's swatch. */
  color: string;
}

const FIGURES: ReachFigure[] = [
  { key: 'whatsapp', label: 'WhatsApp', color: 'var(--mantine-color-teal-filled)' },
  { key: 'sms', label: 'SMS', color: 'var(--mantine-color-blue-filled)' },
  { key: 'optedOut', label: 'Not reached: opted out', color: 'var(--mantine-color-red-filled)' },
  { key: 'noConsent', label: 'Not reached: never opted in', color: 'var(--mantine-color-gray-5)' },
];

interface AudienceReachPanelProps {
  reach: AudienceReach | undefined;
  isFetching: boolean;
  error: Error | null;
  /** Shown instead of figures while there is nothing to count yet (no audience chosen). */
  idleText?: string;
  /** Figures that go with the reach (a campaign's SMS parts and cost), under it. */
  children?: ReactNode;
}

/**
 * How many of an audience's contacts each channel reaches and why the rest are not, as one stacked bar and four
 * figures: WhatsApp N, SMS N, not reached because opted out N, never opted in N.
 */
export function AudienceReachPanel({ reach, isFetching, error, idleText, children }: AudienceReachPanelProps) {
  const total = reach?.total ?? 0;
  const reached = reach ? reach.whatsapp + reach.sms : 0;
  return (
    <Paper withBorder radius="md" p="md" aria-label="Reach" role="region" data-testid="audience-reach" aria-busy={isFetching}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fw={600}>Reach</Text>
          {isFetching && <Loader size="xs" aria-label="Counting the reach" />}
        </Group>
        {error && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {error.message}
          </Alert>
        )}
        {!reach &&
          !error &&
          (idleText ? (
            <Text size="sm" c="dimmed">
              {idleText}
            </Text>
          ) : (
            <Skeleton height={56} />
          ))}
        {reach && (
          <>
            <Text size="sm" data-testid="audience-reach-total">
              {`${reached} of ${total} ${total === 1 ? 'contact' : 'contacts'} reached`}
            </Text>
            <Progress.Root size={14} aria-hidden>
              {FIGURES.map((f) => (
                <Progress.Section key={f.key} value={total ? (reach[f.key] / total) * 100 : 0} color={f.color} />
              ))}
            </Progress.Root>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
              {FIGURES.map((f) => (
                <div key={f.key} data-testid={`reach-${f.key}`}>
                  <Group gap={6} wrap="nowrap" align="center">
                    <span
                      aria-hidden
                      style={{
                        width: 10,
                        height: 10,
                        borderRadius: 2,
                        background: f.color,
                        flexShrink: 0,
                      }}
                    />
                    <Text size="xs" c="dimmed">
                      {f.label}
                    </Text>
                  </Group>
                  <Text fw={700} fz="lg">
                    {reach[f.key]}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
          </>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
