import '@mantine/dates/styles.css';
import { Button, Checkbox, Group, Pagination, Paper, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCalendar, IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Fragment, useState } from 'react';
import { useParams } from 'react-router';
import { isOk } from '../../lib/api';
import { exportSessions, searchSessions, type FlatSearch, type SearchRequest, type SearchRow } from './monitoring.api';
import { MonitoringAppHeader } from './monitoring-app-header';
import { InputsToggle, SessionInputsTable } from './session-inputs-table';
import { formatTime, inputsAsText, type ExportTable } from './table-export';
import { TableExportButtons, type ExportFormat } from './table-export-buttons';
import { usePagedRows } from './use-paged-rows';

export const DATE_RANGE_MESSAGE = 'Please select a date range';
const WORD_MESSAGE = 'Please enter a word to search for';

/** What a search found, with the request that found it (the exports repeat that request on the server). */
type SearchResults = ({ kind: 'rows'; rows: SearchRow[] } | { kind: 'flat'; flat: FlatSearch }) & { request: SearchRequest };
type Download = (format: ExportFormat) => Promise<void>;

/** CSV and Excel hold every session the search matches, not only the loaded ones: the server streams them. */
async function downloadResults(request: SearchRequest, format: ExportFormat, fileName: string) {
  const reply = await exportSessions(request, format, fileName);
  if (!isOk(reply)) notifications.show({ message: reply.message || 'The export failed. Try again.', color: 'red' });
}

const isFlat = (data: unknown): data is FlatSearch => !!data && typeof data === 'object' && Array.isArray((data as FlatSearch).headers);

function NormalResults({ rows, fileName, download }: { rows: SearchRow[]; fileName: string; download: Download }) {
  const { page, setPage, total, pageRows } = usePagedRows(rows);
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  // On a phone NETWORK and DATE fold into a line under the number, so the table fits the screen.
  const isWide = useMediaQuery('(min-width: 48em)', true);
  const getTable = (): ExportTable => ({ headers: ['mobile', 'network', 'date', 'inputs'], rows: rows.map((r) => [r.mobile, r.network, r.date, inputsAsText(r.inputs)]) });
  return (
    <>
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed" data-testid="search-count">
          {rows.length} {rows.length === 1 ? 'session' : 'sessions'} found
        </Text>
        <TableExportButtons fileName={fileName} getTable={getTable} download={download} disabled={rows.length === 0} />
      </Group>
      <Table.ScrollContainer minWidth={isWide ? 560 : 0}>
        <Table striped highlightOnHover verticalSpacing="sm" data-testid="search-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Mobile</Table.Th>
              <Table.Th visibleFrom="sm">Network</Table.Th>
              <Table.Th visibleFrom="sm">Date</Table.Th>
              <Table.Th w={80}>Inputs</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pageRows.map((row, i) => {
              const index = (page - 1) * 10 + i;
              const isOpen = openIndex === index;
              return (
                <Fragment key={index}>
                  <Table.Tr data-testid="search-row">
                    <Table.Td>
                      {row.mobile}
                      <Text hiddenFrom="sm" size="xs" c="dimmed">
                        {row.network} · {formatTime(row.date)}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm">{row.network}</Table.Td>
                    <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatTime(row.date)}
                    </Table.Td>
                    <Table.Td>
                      <InputsToggle isOpen={isOpen} onToggle={() => setOpenIndex(isOpen ? null : index)} />
                    </Table.Td>
                  </Table.Tr>
                  {isOpen && (
                    <Table.Tr>
                      <Table.Td colSpan={4} bg="gray.0">
                        <SessionInputsTable inputs={row.inputs} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > 1 && <Pagination total={total} value={page} onChange={setPage} mt="md" size="sm" />}
    </>
  );
}

function FlatResults({ flat, fileName, download }: { flat: FlatSearch; fileName: string; download: Download }) {
  const { page, setPage, total, pageRows } = usePagedRows(flat.rows);
  const getTable = (): ExportTable => ({ headers: flat.headers, rows: flat.rows.map((row) => flat.headers.map((h) => row[h] ?? '')) });
  return (
    <>
      <Group justify="space-between" mb="sm">
        <Text size="sm" c="dimmed" data-testid="search-count">
          {flat.rows.length} {flat.rows.length === 1 ? 'session' : 'sessions'} found
        </Text>
        <TableExportButtons fileName={fileName} getTable={getTable} download={download} disabled={flat.rows.length === 0} />
      </Group>
      <Table.ScrollContainer minWidth={Math.max(560, flat.headers.length * 130)}>
        <Table striped highlightOnHover verticalSpacing="sm" data-testid="flat-table">
          <Table.Thead>
            <Table.Tr>
              {flat.headers.map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pageRows.map((row, i) => (
              <Table.Tr key={i}>
                {flat.headers.map((h) => (
                  <Table.Td key={h} style={h === 'date' ? { whiteSpace: 'nowrap' } : undefined}>
                    {h === 'date' ? formatTime(row[h] ?? '') : row[h]}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > 1 && <Pagination total={total} value={page} onChange={setPage} mt="md" size="sm" />}
    </>
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
    const request: SearchRequest = {
      appId: id,
      searchBy,
      // The picked days in the viewer's own time zone, as instants (the server also takes bare dates, as UTC days).
      startDate: searchBy === 'date' && start ? dayjs(start).startOf('day').toISOString() : '',
      endDate: searchBy === 'date' && end ? dayjs(end).endOf('day').toISOString() : '',
      searchQuery: searchBy === 'word' ? word.trim() : '',
      flatResults: isFlatResults,
    };
    const reply = await searchSessions(request);
    setIsSearching(false);
    if (!isOk(reply)) {
      // Spec section 4: a failed search resets the search fields.
      resetFields();
      setResults(null);
      notifications.show({ message: reply.message || 'The search failed. Try again.', color: 'red' });
      return;
    }
    setResults(isFlat(reply.data) ? { kind: 'flat', flat: reply.data, request } : { kind: 'rows', rows: Array.isArray(reply.data) ? reply.data : [], request });
  }

  const fileName = `sessions-${id}`;
  const download: Download = (format) => (results ? downloadResults(results.request, format, fileName) : Promise.resolve());
  return (
    <Stack gap="lg">
      <MonitoringAppHeader appId={id} screen="search" title="Session Search" description="Find finished sessions by date or by a word in the number or inputs." />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="form" aria-label="Search sessions" onSubmit={(e) => (e.preventDefault(), void search())}>
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
              <DatePickerInput
                type="range"
                label="Date range"
                placeholder="Pick the first and last day"
                value={range}
                onChange={(value) => {
                  setRange(value);
                  setError(null);
                }}
                leftSection={<IconCalendar size={16} />}
                valueFormat="D MMM YYYY"
                clearable
                allowSingleDateInRange
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
          <Checkbox label="Flatten Results" description="One column per input field" checked={isFlatResults} onChange={(e) => setIsFlatResults(e.currentTarget.checked)} />
          <Group>
            <Button type="submit" leftSection={<IconSearch size={16} />} loading={isSearching}>
              Search
            </Button>
          </Group>
        </Stack>
      </Paper>
      {results && (
        <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
          {results.kind === 'flat' ? <FlatResults flat={results.flat} fileName={fileName} download={download} /> : <NormalResults rows={results.rows} fileName={fileName} download={download} />}
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
