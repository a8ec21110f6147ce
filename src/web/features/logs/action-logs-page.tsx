import { Button, Checkbox, Group, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { showToast } from '../../lib/toast';
import { IconFilter, IconFilterOff, IconTrash } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { LOG_LEVELS } from '../../../shared/api/monitoring.schema';
import { isOk } from '../../lib/api';
import { ActionLogTable } from './action-log-table';
import { ActionLogTerminal } from './action-log-terminal';
import { sortLogsByLevel, sortLogsByTime } from './log-order';
import { useMenusLite } from '../menus/use-menus';
import { clearLogs, searchLogs } from '../../../shared/api/logs.calls';
import { call } from '../../lib/call';
import { LOG_PLUGINS, type LogEntry, type LogFilter } from './logs.api';
import { AppMonitoringHeader } from '../apps/app-monitoring-header';
import { useDelayPassed } from '../../lib/use-delay-passed';
import { SearchForm } from '../../components/search-form';

export const LOGS_AUTOLOAD_DELAY_MS = 2000;

type FilterFields = Omit<LogFilter, 'appId'>;
const EMPTY_FILTER: FilterFields = { filterByMenu: false, filterByLevel: false, filterByPlugin: false, level: '', menuId: '', plugin: '' };

interface FilterRowProps {
  label: string;
  isOn: boolean;
  onToggle: (isOn: boolean) => void;
  value: string;
  onChange: (value: string) => void;
  data: { value: string; label: string }[];
}

/** One filter: a checkbox that switches it on, and its dropdown (picking a value switches it on too). */
function FilterRow({ label, isOn, onToggle, value, onChange, data }: FilterRowProps) {
  return (
    <Stack gap={6}>
      <Checkbox label={`Filter by ${label.toLowerCase()}`} checked={isOn} onChange={(e) => onToggle(e.currentTarget.checked)} />
      <Select
        aria-label={label}
        placeholder={`Choose ${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label.toLowerCase()}`}
        data={data}
        value={value || null}
        onChange={(next) => {
          onChange(next ?? '');
          if (next) onToggle(true);
        }}
        searchable
        clearable
        comboboxProps={{ withinPortal: true }}
      />
    </Stack>
  );
}

/** Application Logs (/app/actionlogs/{id}): filters, Log View and Table View; loads itself 2 s after opening. */
export function ActionLogsPage() {
  const { id = '' } = useParams();
  const [filter, setFilter] = useState<FilterFields>(EMPTY_FILTER);
  const [view, setView] = useState<'log' | 'table'>('log');
  const [logs, setLogs] = useState<LogEntry[]>([]);
  const [isLoading, setIsLoading] = useState(false);
  const [hasLoaded, setHasLoaded] = useState(false);
  const isReady = useDelayPassed(LOGS_AUTOLOAD_DELAY_MS);
  const logsByLevel = useMemo(() => sortLogsByLevel(logs), [logs]);

  const menus = useMenusLite(id, { retry: false });
  const menuError = menus.isError;
  useEffect(() => {
    if (menuError) showToast({ message: 'Failed to fetch menus', color: 'red' });
  }, [menuError]);

  const load = useCallback(
    async (fields: FilterFields) => {
      setIsLoading(true);
      const reply = await call(searchLogs, { body: { appId: id, ...fields } });
      setIsLoading(false);
      setHasLoaded(true);
      // A non-'00' answer or no logs is an empty list.
      if (!isOk(reply)) {
        setLogs([]);
        showToast({ message: 'Failed to search logs', color: 'red' });
        return;
      }
      setLogs(Array.isArray(reply.data) ? sortLogsByTime(reply.data) : []);
    },
    [id],
  );

  const filterRef = useRef(filter);
  filterRef.current = filter;
  useEffect(() => {
    if (isReady) void load(filterRef.current);
  }, [isReady, load]);

  function resetFilter() {
    setFilter(EMPTY_FILTER);
    void load(EMPTY_FILTER);
  }

  function confirmClearLogs() {
    modals.openConfirmModal({
      title: 'Clear all logs?',
      children: <Text size="sm">Every log line of this app is deleted. This cannot be undone.</Text>,
      labels: { confirm: 'Clear Logs', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await call(clearLogs, { body: { appId: id } });
        if (!isOk(reply)) {
          showToast({ message: 'Failed to clear logs', color: 'red' });
          return;
        }
        showToast({ message: 'Logs cleared successfully', color: 'teal' });
        setLogs([]);
      },
    });
  }

  const set = (patch: Partial<FilterFields>) => setFilter((current) => ({ ...current, ...patch }));
  const menuOptions = (menus.data ?? []).map((m) => ({
    value: m.uniqueId,
    label: m.userDefinedName || m.displayText.slice(0, 40) || m.uniqueId,
  }));

  return (
    <Stack gap="lg">
      <AppMonitoringHeader
        appId={id}
        screen="logs"
        title="Application Logs"
        description="What the app's actions logged, by menu, action type and level."
      />
      <SearchForm label="Log filters" onSearch={() => void load(filter)}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <FilterRow
            label="Menu"
            isOn={filter.filterByMenu}
            onToggle={(on) => set({ filterByMenu: on })}
            value={filter.menuId}
            onChange={(menuId) => set({ menuId })}
            data={menuOptions}
          />
          <FilterRow
            label="Action type"
            isOn={filter.filterByPlugin}
            onToggle={(on) => set({ filterByPlugin: on })}
            value={filter.plugin}
            onChange={(plugin) => set({ plugin })}
            data={LOG_PLUGINS.map((p) => ({ value: p, label: p }))}
          />
          <FilterRow
            label="Level"
            isOn={filter.filterByLevel}
            onToggle={(on) => set({ filterByLevel: on })}
            value={filter.level}
            onChange={(level) => set({ level })}
            data={LOG_LEVELS.map((l) => ({ value: l, label: l }))}
          />
        </SimpleGrid>
        <Group mt="lg" gap="sm">
          <Button type="submit" leftSection={<IconFilter size={16} />} loading={isLoading}>
            Filter
          </Button>
          <Button variant="default" leftSection={<IconFilterOff size={16} />} onClick={resetFilter}>
            Clear
          </Button>
          <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={confirmClearLogs} ml={{ sm: 'auto' }}>
            Clear Logs
          </Button>
        </Group>
      </SearchForm>
      <Group justify="space-between">
        <SegmentedControl
          value={view}
          onChange={(value) => setView(value as 'log' | 'table')}
          data={[
            { value: 'log', label: 'Log View' },
            { value: 'table', label: 'Table View' },
          ]}
          aria-label="Log display"
        />
        <Text size="sm" c="dimmed" data-testid="log-count">
          {hasLoaded ? `${logs.length} ${logs.length === 1 ? 'line' : 'lines'}` : isReady ? 'Loading…' : 'Logs load in a moment…'}
        </Text>
      </Group>
      {view === 'log' ? <ActionLogTerminal logs={logs} /> : <ActionLogTable logs={logsByLevel} appId={id} />}
    </Stack>
  );
}
