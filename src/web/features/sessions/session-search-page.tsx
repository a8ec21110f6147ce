import { Button, Checkbox, Group, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { DatesRangeValue } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { showToast } from '../../lib/toast';
import { IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useParams } from 'react-router';
import { isOk } from '../../lib/api';
import type { SearchBody } from '../../../shared/api/monitoring.schema';
import { exportSessions, searchSessions } from '../../../shared/api/sessions.calls';
import { call, downloadCall } from '../../lib/call';
import type { FlatSearch, SearchRow } from './sessions.api';
import { AppMonitoringHeader } from '../apps/app-monitoring-header';
import { describeNetwork } from '../../../shared/mobile-networks';
import { InputsToggle, SessionInputsTable } from './session-inputs-table';
import { NetworkName } from '../../components/network-name';
import { getSourceLabel, SessionSourceBadge } from './session-source-badge';
import { formatTime, inputsAsText, type ExportTable } from '../../lib/table-export';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { ExportFormat } from '../../components/table-export-buttons';
import { SearchForm } from '../../components/search-form';
import { DateRangeInput } from '../../components/date-range-input';

export const DATE_RANGE_MESSAGE = 'Please select a date range';
const WORD_MESSAGE = 'Please enter a word to search for';

/** What a search found, with the request that found it (the exports repeat that request on the server). */
type SearchResults = ({ kind: 'rows'; rows: SearchRow[] } | { kind: 'flat'; flat: FlatSearch }) & { request: SearchBody };
type Download = (format: ExportFormat) => Promise<void>;

/** CSV and Excel hold every session the search matches, not only the loaded ones: the server streams them. */
async function downloadResults(request: SearchBody, format: ExportFormat, fileName: string) {
  const reply = await downloadCall(exportSessions, { body: { ...request, format } }, `${fileName}.${format}`);
  if (!isOk(reply)) showToast({ message: reply.message || 'The export failed. Try again.', color: 'red' });
}

const isFlat = (data: unknown): data is FlatSearch => !!data && typeof data === 'object' && Array.isArray((data as FlatSearch).headers);

function NormalResults({ rows, fileName, download }: { rows: SearchRow[]; fileName: string; download: Download }) {
  // On a phone NETWORK, DATE and SOURCE fold into lines under the number, so the table fits the screen.
  const isWide = useMediaQuery('(min-width: 48em)', true);
  // Copied rows have the columns of the exported file (its inputs in one cell).
  const getTable = (): ExportTable => ({
    headers: ['mobile', 'network', 'networkCode', 'date', 'source', 'inputs'],
    rows: rows.map((r) => {
      const network = describeNetwork(r.network);
      return [r.mobile, network.name, network.code, r.date, getSourceLabel(r), inputsAsText(r.inputs, r.media)];
    }),
  });
  const columns: DataTableColumn<SearchRow>[] = [
    {
      header: 'Mobile',
      render: (row) => (
        <>
          {row.mobile}
          <Text hiddenFrom="sm" size="xs" c="dimmed">
            <NetworkName network={row.network} /> · {formatTime(row.date)}
            <br />
            <SessionSourceBadge environment={row.environment} gateway={row.gateway} />
          </Text>
        </>
      ),
    },
    { header: 'Network', visibleFrom: 'sm', render: (row) => <NetworkName network={row.network} /> },
    { header: 'Date', visibleFrom: 'sm', cellProps: { style: { whiteSpace: 'nowrap' } }, render: (row) => formatTime(row.date) },
    {
      header: 'Source',
      visibleFrom: 'sm',
      render: (row) => <SessionSourceBadge environment={row.environment} gateway={row.gateway} />,
    },
    { header: 'Inputs', width: 80, render: (_, { isOpen, toggle }) => <InputsToggle isOpen={isOpen} onToggle={toggle} /> },
  ];
  return (
    <DataTable
      rows={rows}
      columns={columns}
      getRowKey={(_, index) => index}
      summary={<FoundCount count={rows.length} />}
      exportButtons={{ fileName, getTable, download, disabled: rows.length === 0 }}
      minWidth={isWide ? 660 : 0}
      testId="search-table"
      rowTestId="search-row"
      renderDetails={(row) => <SessionInputsTable inputs={row.inputs} media={row.media} />}
      detailsBackground="gray.0"
    />
  );
}

function FoundCount({ count }: { count: number }) {
  return (
    <Text size="sm" c="dimmed" data-testid="search-count">
      {count} {count === 1 ? 'session' : 'sessions'} found
    </Text>
  );
}

/** A flat table's cell: the date in the viewer's time, the network with its code on hover, the rest as sent. */
function FlatCell({ column, row }: { column: string; row: Record<string, string> }) {
  if (column === 'date') return formatTime(row.date ?? '');
  if (column === 'network') return <NetworkName network={row.networkCode || row.network || ''} />;
  return row[column];
}

function FlatResults({ flat, fileName, download }: { flat: FlatSearch; fileName: string; download: Download }) {
  const getTable = (): ExportTable => ({ headers: flat.headers, rows: flat.rows.map((row) => flat.headers.map((h) => row[h] ?? '')) });
  const columns = flat.headers.map(
    (h): DataTableColumn<Record<string, string>> => ({
      header: h,
      cellProps: h === 'date' ? { style: { whiteSpace: 'nowrap' } } : undefined,
      render: (row) => <FlatCell column={h} row={row} />,
    }),
  );
  return (
    <DataTable
      rows={flat.rows}
      columns={columns}
      getRowKey={(_, index) => index}
      summary={<FoundCount count={flat.rows.length} />}
      exportButtons={{ fileName, getTable, download, disabled: flat.rows.length === 0 }}
      minWidth={Math.max(560, flat.headers.length * 130)}
      testId="flat-table"
    />
  );
}

/** Session search (/app/search/{id}): by date range (default) or by word, optionally flattened to one column per input. */
export function SessionSearchPage() {
  const { id = '' } = useParams();
  const [searchBy, setSearchBy] = useState<'date' | 'word'>('date');
  const [range, setRange] = useState<DatesRangeValue<string>>([null, null]);
  const [word, setWord] = useState('');
  const [isFlatResults, setIsFlatResults] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isSearching, setIsSearching] = useState(false);
  const [results, setResults] = useState<SearchResults | null>(null);

  function resetFields() {
    setSearchBy('date');
    setRange([null, null]);
    setWord('');
    setIsFlatResults(false);
  }

  async function search() {
    const [start, end] = range;
    if (searchBy === 'date' && (!start || !end)) return setError(DATE_RANGE_MESSAGE);
    if (searchBy === 'word' && !word.trim()) return setError(WORD_MESSAGE);
    setError(null);
    setIsSearching(true);
    const request: SearchBody = {
      appId: id,
      searchBy,
      // The picked days in the viewer's own time zone, as instants (the server also takes bare dates, as UTC days).
      startDate: searchBy === 'date' && start ? dayjs(start).startOf('day').toISOString() : '',
      endDate: searchBy === 'date' && end ? dayjs(end).endOf('day').toISOString() : '',
      searchQuery: searchBy === 'word' ? word.trim() : '',
      flatResults: isFlatResults,
    };
    const reply = await call(searchSessions, { body: request });
    setIsSearching(false);
    if (!isOk(reply)) {
      // A failed search resets the search fields.
      resetFields();
      setResults(null);
      showToast({ message: reply.message || 'The search failed. Try again.', color: 'red' });
      return;
    }
    setResults(
      isFlat(reply.data)
        ? { kind: 'flat', flat: reply.data, request }
        : { kind: 'rows', rows: Array.isArray(reply.data) ? reply.data : [], request },
    );
  }

  const fileName = `sessions-${id}`;
  const download: Download = (format) => (results ? downloadResults(results.request, format, fileName) : Promise.resolve());
  return (
    <Stack gap="lg">
      <AppMonitoringHeader
        appId={id}
        screen="search"
        title="Session Search"
        description="Find finished sessions by date or by a word in the number or inputs."
      />
      <SearchForm label="Search sessions" onSearch={() => void search()}>
        <Stack gap="md">
          <SegmentedControl
            value={searchBy}
            onChange={(value) => {
              setSearchBy(value as 'date' | 'word');
              setError(null);
            }}
            data={[
              { value: 'date', label: 'Search By Date' },
              { value: 'word', label: 'Search By Word' },
            ]}
            aria-label="Search by"
            style={{ alignSelf: 'flex-start' }}
          />
          <Group align="flex-start" gap="md" wrap="wrap">
            {searchBy === 'date' ? (
              <DateRangeInput
                value={range}
                onChange={(value) => {
                  setRange(value);
                  setError(null);
                }}
                error={error}
                w={{ base: '100%', sm: 340 }}
              />
            ) : (
              <TextInput
                label="Word"
                placeholder="A number, a name, any input"
                value={word}
                onChange={(e) => {
                  setWord(e.currentTarget.value);
                  setError(null);
                }}
                error={error}
                w={{ base: '100%', sm: 340 }}
              />
            )}
          </Group>
          <Checkbox
            label="Flatten Results"
            description="One column per input field"
            checked={isFlatResults}
            onChange={(e) => setIsFlatResults(e.currentTarget.checked)}
          />
          <Group>
            <Button type="submit" leftSection={<IconSearch size={16} />} loading={isSearching}>
              Search
            </Button>
          </Group>
        </Stack>
      </SearchForm>
      {results && (
        <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
          {results.kind === 'flat' ? (
            <FlatResults flat={results.flat} fileName={fileName} download={download} />
          ) : (
            <NormalResults rows={results.rows} fileName={fileName} download={download} />
          )}
          {(results.kind === 'flat' ? results.flat.rows.length : results.rows.length) === 0 && (
            <Text c="dimmed" ta="center" py="md">
              No sessions match this search
            </Text>
          )}
        </Paper>
      )}
    </Stack>
  );
}
