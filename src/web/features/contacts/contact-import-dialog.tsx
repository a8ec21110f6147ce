import { Alert, Badge, Button, FileInput, Group, Modal, Progress, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  CONTACT_IMPORT_LIMITS,
  CONTACT_IMPORT_MESSAGES,
  type ContactImport,
  type ContactImportPreview,
  type ImportColumn,
} from '../../../shared/api/contact-imports.schema';
import { exportContactImportErrors, getContactImport, previewContactImport, startContactImport } from '../../../shared/api/contacts.calls';
import { FormAlert } from '../../components/form-alert';
import { LoadErrorPanel } from '../../components/load-error-panel';
import { failureText, isOk } from '../../lib/api';
import { call, callQuery, downloadCall } from '../../lib/call';
import { COUNTRY_OPTIONS } from '../apps/app-countries.data';
import { CHANNEL_LABELS, CONTACTS_KEY } from './contacts.api';

const KIND_LABELS: Record<ImportColumn['kind'], string> = {
  phone: 'phone number',
  name: 'name',
  language: 'language',
  attribute: 'attribute',
  consent: 'consent',
  ignored: 'ignored',
};

function columnLabel(column: ImportColumn): string {
  if (column.kind === 'consent') return `consent on ${CHANNEL_LABELS[column.key as keyof typeof CHANNEL_LABELS]}`;
  return KIND_LABELS[column.kind];
}

/** The import's progress, polled until it ends; then its counts and the download of the skipped rows. */
function ImportProgress({ importId, onDone }: { importId: string; onDone: (status: ContactImport['status']) => void }) {
  const queryClient = useQueryClient();
  const job = useQuery({
    ...callQuery(getContactImport, { params: { importId } }, 'The import could not be read.'),
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'running' ? false : 1000),
  });
  const data = job.data;
  const [downloadError, setDownloadError] = useState<string | null>(null);
  if (job.error) return <LoadErrorPanel message={job.error.message} onRetry={() => void job.refetch()} />;
  if (!data) return <Text size="sm">Starting the import…</Text>;
  const percent = data.rowCount > 0 ? Math.round((data.processed / data.rowCount) * 100) : 100;
  const running = data.status === 'running';
  return (
    <Stack gap="sm" data-testid="contact-import-progress" data-status={data.status}>
      <Text size="sm" fw={600}>
        {running
          ? `Importing… ${data.processed.toLocaleString()} of ${data.rowCount.toLocaleString()} rows`
          : data.status === 'done'
            ? 'Import finished'
            : 'Import stopped'}
      </Text>
      <Progress value={percent} animated={running} aria-label="Import progress" />
      <Group gap="xs">
        <Badge variant="light" color="teal">
          {data.created.toLocaleString()} created
        </Badge>
        <Badge variant="light" color="blue">
          {data.updated.toLocaleString()} updated
        </Badge>
        <Badge variant="light" color={data.skipped > 0 ? 'orange' : 'gray'}>
          {data.skipped.toLocaleString()} skipped
        </Badge>
      </Group>
      {data.failure && <FormAlert message={data.failure} onClose={() => undefined} />}
      <FormAlert message={downloadError} onClose={() => setDownloadError(null)} />
      {!running && (
        <Group justify="flex-end" gap="sm">
          {data.skipped > 0 && (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={async () => {
                const reply = await downloadCall(exportContactImportErrors, { params: { importId } }, 'import-errors.csv');
                setDownloadError(isOk(reply) ? null : failureText(reply, 'The errors could not be downloaded.'));
              }}
            >
              Download skipped rows
            </Button>
          )}
          <Button
            onClick={() => {
              void queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });
              onDone(data.status);
            }}
          >
            Done
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function PreviewTable({ preview }: { preview: ContactImportPreview }) {
  const phoneAt = preview.columns.findIndex((c) => c.kind === 'phone');
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table verticalSpacing={6} fz="sm" aria-label="First rows as read" data-testid="contact-import-preview">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={50}>Row</Table.Th>
            <Table.Th>Number</Table.Th>
            <Table.Th>Becomes</Table.Th>
            <Table.Th>Other cells</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.rows.map((r) => (
            <Table.Tr key={r.row} data-row={r.row} bg={r.errors.length > 0 ? 'red.0' : undefined}>
              <Table.Td>{r.row}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.cells[phoneAt] ?? ''}</Table.Td>
              <Table.Td>
                {r.msisdn && <Text size="sm">{r.msisdn}</Text>}
                {r.errors.map((e) => (
                  <Text key={e} size="xs" c="red.8" style={{ overflowWrap: 'anywhere' }}>
                    {e}
                  </Text>
                ))}
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {r.cells.filter((_, i) => i !== phoneAt && r.cells[i]).join(' · ')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface ContactImportDialogProps {
  opened: boolean;
  onClose: () => void;
  /**
   * A tag every contact of the file gets (`list=spring-offers`, from the file's name): the file's contacts as one
   * audience for a campaign (docs/campaigns.md, "A CSV for one campaign").
   */
  tagFor?: (fileName: string) => string;
  /** Called, before onClose, once an import ended `done` and its Done was pressed: the file and the tag it gave. */
  onImported?: (done: { fileName: string; tag: string | undefined }) => void;
}

/**
 * Import CSV: choose a file and the country of numbers written without their country code, see how the file
 * reads (columns, first rows and the number each becomes, the rows that will be skipped and why), state the
 * consent's source when the file carries consent, then import with its progress.
 */
export function ContactImportDialog({ opened, onClose, tagFor, onImported }: ContactImportDialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [country, setCountry] = useState<string | null>('ghana');
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<ContactImportPreview | null>(null);
  const [consentSource, setConsentSource] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [importId, setImportId] = useState<string | null>(null);
  const tag = file && tagFor ? tagFor(file.name) : undefined;

  const reset = () => {
    setFile(null);
    setCsv(null);
    setPreview(null);
    setConsentSource('');
    setError(null);
    setImportId(null);
  };
  const close = () => {
    reset();
    onClose();
  };

  const readPreview = async () => {
    if (!file || !country) return setError('Choose a CSV file and the country of its national numbers.');
    if (file.size > CONTACT_IMPORT_LIMITS.maxChars) return setError(CONTACT_IMPORT_MESSAGES.tooLarge);
    setBusy(true);
    setError(null);
    const text = await file.text();
    const reply = await call(previewContactImport, { body: { csv: text, defaultCountry: country as 'ghana' } });
    setBusy(false);
    if (!isOk(reply) || !reply.data) return setError(failureText(reply, 'The file could not be read.'));
    setCsv(text);
    setPreview(reply.data);
  };

  const startImport = async () => {
    if (!csv || !country || !preview) return;
    if (preview.hasConsent && !consentSource.trim()) return setError(CONTACT_IMPORT_MESSAGES.consentSourceRequired);
    setBusy(true);
    setError(null);
    const reply = await call(startContactImport, {
      body: { csv, defaultCountry: country as 'ghana', consentSource: consentSource.trim() || undefined, tag },
    });
    setBusy(false);
    if (!isOk(reply) || !reply.data) return setError(failureText(reply, 'The import could not start.'));
    setImportId(reply.data.importId);
  };

  const columnErrors = preview?.columns.flatMap((c) => (c.error ? [c.error] : [])) ?? [];
  const importable = preview !== null && columnErrors.length === 0 && preview.errorCount < preview.rowCount;

  return (
    <Modal
      opened={opened}
      onClose={importId ? () => undefined : close}
      title="Import contacts from a CSV file"
      size="xl"
      closeOnClickOutside={false}
    >
      {importId ? (
        <ImportProgress
          importId={importId}
          onDone={(status) => {
            if (status === 'done' && file) onImported?.({ fileName: file.name, tag });
            close();
          }}
        />
      ) : (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            One contact a row. A phone number column is required (phone, phone_number, msisdn, mobile or number); name and language are read
            as such, <code>whatsapp_consent</code>, <code>sms_consent</code> or <code>ussd_consent</code> as yes or no, and any other column
            as an attribute. Existing contacts are updated (attributes merged), never duplicated. At most{' '}
            {CONTACT_IMPORT_LIMITS.maxRows.toLocaleString()} rows and 20 MB.
          </Text>
          <Group grow align="flex-start">
            <FileInput
              label="CSV file"
              placeholder="Choose a file"
              accept=".csv,text/csv"
              leftSection={<IconFileTypeCsv size={16} />}
              value={file}
              onChange={(f) => {
                setFile(f);
                setPreview(null);
                setCsv(null);
              }}
              clearable
              clearButtonProps={{ 'aria-label': 'Clear the file' }}
            />
            <Select
              label="Country of national numbers"
              description="For numbers written without a country code (0241234567)"
              data={COUNTRY_OPTIONS}
              value={country}
              onChange={(value) => {
                setCountry(value);
                setPreview(null);
              }}
              searchable
            />
          </Group>
          {tagFor && (
            <Text size="sm" data-testid="contact-import-tag">
              Every contact in this file gets the attribute <code>{tag ?? "list=<the file's name>"}</code>, new or already there.
            </Text>
          )}
          <FormAlert message={error} onClose={() => setError(null)} />
          {!preview && (
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button onClick={() => void readPreview()} loading={busy} disabled={!file}>
                Preview
              </Button>
            </Group>
          )}
          {preview && (
            <Stack gap="sm">
              <Group gap="xs">
                {preview.columns
                  .filter((c) => c.kind !== 'ignored')
                  .map((c, i) => (
                    <Badge
                      key={`${c.header}-${i}`}
                      variant="light"
                      color={c.error ? 'red' : c.kind === 'phone' ? 'teal' : 'blue'}
                      tt="none"
                    >
                      {c.header.trim()} → {columnLabel(c)}
                    </Badge>
                  ))}
              </Group>
              <Text size="sm" data-testid="contact-import-summary">
                {preview.rowCount.toLocaleString()} {preview.rowCount === 1 ? 'row' : 'rows'};{' '}
                {preview.errorCount > 0 ? `${preview.errorCount.toLocaleString()} with errors will be skipped` : 'no errors'}.
              </Text>
              {columnErrors.length > 0 && (
                <Alert color="red" icon={<IconAlertTriangle size={18} />} title="This file cannot be imported">
                  {columnErrors.join(' ')} Rename the column in the file and choose it again.
                </Alert>
              )}
              <PreviewTable preview={preview} />
              {preview.errors.length > 0 && (
                <Stack gap={2} data-testid="contact-import-errors">
                  <Text size="sm" fw={600}>
                    Rows that will be skipped{preview.errorCount > preview.errors.length ? ` (first ${preview.errors.length})` : ''}
                  </Text>
                  {preview.errors.slice(0, 10).map((e) => (
                    <Text key={e.row} size="sm" c="red.8" style={{ overflowWrap: 'anywhere' }}>
                      Row {e.row}: {e.message}
                    </Text>
                  ))}
                </Stack>
              )}
              {preview.hasConsent && (
                <TextInput
                  label="Consent source"
                  description="Where the people in this file gave or refused consent (a signed form, a website opt-in): kept with each contact's consent"
                  placeholder="Paper sign-up forms, Accra shop, 2026"
                  value={consentSource}
                  onChange={(e) => setConsentSource(e.currentTarget.value)}
                  required
                  maxLength={200}
                />
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={reset}>
                  Choose another file
                </Button>
                <Button onClick={() => void startImport()} loading={busy} disabled={!importable}>
                  Import {(preview.rowCount - preview.errorCount).toLocaleString()} contacts
                </Button>
              </Group>
            </Stack>
          )}
        </Stack>
      )}
    </Modal>
  );
}
