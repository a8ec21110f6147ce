import { Alert, Button, Group, NumberInput, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { getAccountRetention, saveAccountRetention } from '../../../shared/api/retention.calls';
import type { AccountRetention, RetentionFigure } from '../../../shared/api/retention.schema';
import type { RetentionKind } from '../../../shared/billing/plans';
import { LoadErrorPanel } from '../../components/load-error-panel';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery, queryKey } from '../../lib/call';
import { showToast } from '../../lib/toast';

/** `30 days`, `1 day`, `for ever`. */
const describeDays = (days: number | null) => (days === null ? 'for ever' : `${days} ${days === 1 ? 'day' : 'days'}`);

/** Where a kind's bound comes from, in words: `Plan: 30 days · Installation: 365 days`. */
function describeBounds(figure: RetentionFigure): string {
  const plan = figure.planDays === null ? 'no limit' : describeDays(figure.planDays);
  const operator = figure.operatorDays === null ? 'no limit' : describeDays(figure.operatorDays);
  return `Plan: ${plan} · Installation: ${operator}`;
}

/** The field's error for what is typed, as the server would say it (the server checks again). */
function checkDays(figure: RetentionFigure, value: number | ''): string | null {
  if (value === '') return null;
  if (!Number.isInteger(value)) return 'A whole number of days.';
  if (value < 1) return 'At least 1 day.';
  if (value > figure.bound) return `At most ${figure.bound} days on this account.`;
  return null;
}

type Asks = Partial<Record<RetentionKind, number | ''>>;
/** The saved asks; one past today's bound (the plan changed since) shows empty, as it counts: the bound applies. */
const toAsks = (retention: AccountRetention): Asks =>
  Object.fromEntries(retention.figures.map((f) => [f.kind, f.askedDays !== null && f.askedDays <= f.bound ? f.askedDays : ''])) as Asks;

/**
 * Account Settings, Retention: per kind of data, how long it is kept now and the plan's and installation's
 * bounds; the account may keep any kind for fewer days (empty: as long as the bound allows).
 */
export function RetentionPanel() {
  const queryClient = useQueryClient();
  const { data, error, refetch, isPending } = useQuery(callQuery(getAccountRetention, {}, 'The data retention could not be loaded.'));
  const [asks, setAsks] = useState<Asks>({});
  const [isSaving, setSaving] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (data) setAsks(toAsks(data));
  }, [data]);

  if (error) return <LoadErrorPanel message={error.message} onRetry={() => void refetch()} />;
  if (isPending || !data)
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the data retention">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={56} radius="md" />
        ))}
      </Stack>
    );

  const errors = Object.fromEntries(data.figures.map((f) => [f.kind, checkDays(f, asks[f.kind] ?? '')]));
  const hasErrors = Object.values(errors).some(Boolean);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (hasErrors) return;
    setSaving(true);
    setMessage(null);
    const days = Object.fromEntries(data!.figures.map((f) => [f.kind, asks[f.kind] === '' ? null : (asks[f.kind] ?? null)]));
    const reply = await call(saveAccountRetention, { body: { days } });
    setSaving(false);
    if (!isOk(reply) || !reply.data) {
      setMessage(failureText(reply, 'The data retention could not be saved.'));
      return;
    }
    queryClient.setQueryData(queryKey(getAccountRetention), reply.data);
    showToast({ color: 'teal', title: 'Saved', message: reply.message ?? 'Data retention saved' });
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Data retention">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          How long your apps' data is kept before it is deleted, by kind ({data.planTitle}). You may keep any of it for fewer days; leave a
          field empty to keep it as long as your plan and this installation allow. The dashboard keeps its daily counts after the rows go.
        </Text>
        {message && (
          <Alert color="red" variant="light" title="Not saved">
            {message}
          </Alert>
        )}
        <Stack gap={0} data-testid="retention-figures">
          {data.figures.map((figure) => (
            <Group
              key={figure.kind}
              justify="space-between"
              align="flex-start"
              wrap="wrap"
              gap="sm"
              py="sm"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <div style={{ minWidth: 0, flex: '1 1 220px' }}>
                <Text fw={600} size="sm">
                  {figure.label}
                </Text>
                <Text size="sm" data-testid={`retention-kept-${figure.kind}`}>
                  Kept {describeDays(figure.days)}
                </Text>
                <Text size="xs" c="dimmed">
                  {describeBounds(figure)}
                </Text>
              </div>
              <NumberInput
                label="Days to keep"
                aria-label={`Keep ${figure.label.toLowerCase()} for (days)`}
                placeholder={`${figure.bound}`}
                min={1}
                max={figure.bound}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                value={asks[figure.kind] ?? ''}
                onChange={(value) => setAsks((current) => ({ ...current, [figure.kind]: typeof value === 'number' ? value : '' }))}
                error={errors[figure.kind]}
                w={{ base: '100%', xs: 200 }}
              />
            </Group>
          ))}
        </Stack>
        <Group justify="flex-end">
          <Button type="submit" loading={isSaving} disabled={hasErrors}>
            Save retention
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
