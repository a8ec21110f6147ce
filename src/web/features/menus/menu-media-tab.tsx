import {
  Button,
  FileButton,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { IconFile, IconMapPin, IconUpload, IconUser } from '@tabler/icons-react';
import { useState } from 'react';
import { defaultMediaMessage, defaultSizeMessage, type Attachment, type FileAttachment } from '../../../shared/app';
import { INPUT_KINDS, MEDIA_KINDS, MEDIA_TYPES, type InputKind, type MediaKind, type MediaRef } from '../../../shared/media';
import { failureText, isOk, uploadFile } from '../../lib/api';
import { nextKey, type AttachmentDraft, type FormErrors, type MenuFormValues } from './menu-form-state';
import { MenuRowControls, moveItem, removeItem } from './menu-row-buttons';

interface MenuMediaTabProps {
  appId: string;
  values: MenuFormValues;
  set: (patch: Partial<MenuFormValues>) => void;
  errors: FormErrors;
}

const MB = 1024 * 1024;

export const INPUT_KIND_LABELS: Record<InputKind, string> = {
  text: 'Text (typed)',
  image: 'Photo',
  document: 'Document',
  audio: 'Voice note or audio',
  video: 'Video',
  location: 'Location',
};
const KIND_OPTIONS = INPUT_KINDS.map((k) => ({ value: k, label: INPUT_KIND_LABELS[k] }));
const FILE_KIND_OPTIONS = MEDIA_KINDS.map((k) => ({ value: k, label: INPUT_KIND_LABELS[k] }));
const SOURCE_OPTIONS = [
  { value: 'upload', label: 'Upload' },
  { value: 'url', label: 'URL' },
  { value: 'variable', label: 'Variable' },
];
const SOURCE_PLACEHOLDERS = { url: 'https://example.com/menu.pdf', variable: 'actions.receipt.file' } as const;

const isFileKind = (kind: InputKind): kind is MediaKind => kind !== 'text' && kind !== 'location';

/**
 * The Media tab, a bot's only (docs/bots.md, "Media"): what the menu asks for and the rules it holds a file to,
 * the files, pins and contact cards sent before its screen, a link button and a location request.
 */
export function MenuMediaTab({ appId, values, set, errors }: MenuMediaTabProps) {
  const kind = values.inputKind;
  const rules = values.mediaInput;
  const err = (field: string) => errors[field]?.message;
  const setRules = (patch: Partial<MenuFormValues['mediaInput']>) => set({ mediaInput: { ...rules, ...patch } });
  const setAttachment = (index: number, next: Attachment) =>
    set({ attachments: values.attachments.map((a, i) => (i === index ? { ...next, key: a.key } : a)) });
  const add = (attachment: Attachment) => set({ attachments: [...values.attachments, { ...attachment, key: nextKey('attachment') }] });
  const isFull = values.attachments.length >= 10;

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          What the menu asks for
        </Text>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <Select
            label="Input kind"
            data={KIND_OPTIONS}
            value={kind}
            onChange={(v) =>
              v &&
              set({
                inputKind: v as InputKind,
                mediaInput: { ...rules, mimeTypes: [], maxBytes: null },
                requestLocation: v === 'location' && values.requestLocation,
              })
            }
            allowDeselect={false}
            error={err('inputKind')}
            w={{ base: '100%', xs: 220 }}
          />
          {isFileKind(kind) && (
            <>
              <MultiSelect
                label="Allowed types"
                description="None chosen: all WhatsApp takes"
                data={MEDIA_TYPES[kind].mimeTypes.map((t) => ({ value: t, label: t }))}
                value={rules.mimeTypes}
                onChange={(mimeTypes) => setRules({ mimeTypes })}
                error={err('mediaInput.mimeTypes')}
                w={{ base: '100%', xs: 320 }}
              />
              <NumberInput
                label="Max size (MB)"
                description={`At most ${MEDIA_TYPES[kind].maxBytes / MB} MB`}
                placeholder={String(MEDIA_TYPES[kind].maxBytes / MB)}
                min={0.1}
                max={MEDIA_TYPES[kind].maxBytes / MB}
                decimalScale={1}
                value={rules.maxBytes === null ? '' : rules.maxBytes / MB}
                onChange={(v) => setRules({ maxBytes: typeof v === 'number' && v > 0 ? Math.round(v * MB) : null })}
                error={err('mediaInput.maxBytes')}
                w={{ base: '100%', xs: 160 }}
              />
            </>
          )}
        </Group>
        {kind !== 'text' && (
          <Group gap="sm" align="flex-start" wrap="wrap">
            <TextInput
              label="Error message"
              description="When something else arrives"
              placeholder={defaultMediaMessage(kind, rules.mimeTypes)}
              value={rules.errorMessage}
              onChange={(e) => setRules({ errorMessage: e.currentTarget.value })}
              error={err('mediaInput.errorMessage') ?? err('mediaInput')}
              style={{ flex: '1 1 260px' }}
            />
            {isFileKind(kind) && (
              <TextInput
                label="Too big message"
                placeholder={defaultSizeMessage(rules.maxBytes ?? MEDIA_TYPES[kind].maxBytes)}
                value={rules.sizeErrorMessage}
                onChange={(e) => setRules({ sizeErrorMessage: e.currentTarget.value })}
                style={{ flex: '1 1 260px' }}
              />
            )}
          </Group>
        )}
        {kind === 'location' && (
          <Switch
            label="Show a “Send location” button (location request)"
            checked={values.requestLocation}
            onChange={(e) => set({ requestLocation: e.currentTarget.checked })}
            error={err('requestLocation')}
          />
        )}
      </Stack>

      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div>
            <Text fw={600} size="sm">
              Attachments
            </Text>
            <Text size="xs" c="dimmed">
              Sent before the screen's text, in this order (at most 10).
            </Text>
          </div>
          <Group gap={6}>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconFile size={14} />}
              disabled={isFull}
              onClick={() => add({ type: 'file', kind: 'image', source: 'upload', value: '', caption: '', fileName: '' })}
            >
              Add file
            </Button>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconMapPin size={14} />}
              disabled={isFull}
              onClick={() => add({ type: 'location', latitude: '', longitude: '', name: '', address: '' })}
            >
              Add location
            </Button>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconUser size={14} />}
              disabled={isFull}
              onClick={() => add({ type: 'contact', name: '', phones: [''] })}
            >
              Add contact card
            </Button>
          </Group>
        </Group>
        {values.attachments.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" py="sm">
            No attachments: the screen's text goes alone.
          </Text>
        )}
        {values.attachments.map((attachment, i) => (
          <Paper key={attachment.key} withBorder radius="md" p="sm" data-testid="menu-attachment">
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <div style={{ flex: 1, minWidth: 0 }}>
                <AttachmentFields
                  appId={appId}
                  index={i}
                  attachment={attachment}
                  errors={errors}
                  onChange={(next) => setAttachment(i, next)}
                />
              </div>
              <MenuRowControls
                noun="attachment"
                index={i}
                count={values.attachments.length}
                onMove={(by) => set({ attachments: moveItem(values.attachments, i, by) })}
                onRemove={() => set({ attachments: removeItem(values.attachments, i) })}
              />
            </Group>
          </Paper>
        ))}
      </Stack>

      <Stack gap="xs">
        <div>
          <Text fw={600} size="sm">
            Link button
          </Text>
          <Text size="xs" c="dimmed">
            A button under the screen that opens a web page; leave empty for none.
          </Text>
        </div>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            label="Button text"
            placeholder="Track order"
            maxLength={20}
            value={values.linkText}
            onChange={(e) => set({ linkText: e.currentTarget.value })}
            error={err('linkText')}
            w={{ base: '100%', xs: 200 }}
          />
          <TextInput
            label="Address"
            placeholder="https://example.com/orders/{{ session.inputs.order }}"
            value={values.linkUrl}
            onChange={(e) => set({ linkUrl: e.currentTarget.value })}
            error={err('linkUrl')}
            style={{ flex: '1 1 280px' }}
          />
        </Group>
      </Stack>
    </Stack>
  );
}

interface AttachmentFieldsProps {
  appId: string;
  index: number;
  attachment: AttachmentDraft;
  errors: FormErrors;
  onChange: (next: Attachment) => void;
}

function AttachmentFields({ appId, index, attachment, errors, onChange }: AttachmentFieldsProps) {
  const err = (field: string) => errors[`attachments.${index}.${field}`]?.message;
  const { key: _key, ...a } = attachment;
  const n = index + 1;
  if (a.type === 'location')
    return (
      <Group gap="xs" align="flex-start" wrap="wrap">
        <TextInput
          label={`${n}. Latitude`}
          placeholder="5.6037"
          value={a.latitude}
          onChange={(e) => onChange({ ...a, latitude: e.currentTarget.value })}
          error={err('latitude')}
          w={120}
        />
        <TextInput
          label="Longitude"
          placeholder="-0.1870"
          value={a.longitude}
          onChange={(e) => onChange({ ...a, longitude: e.currentTarget.value })}
          error={err('longitude')}
          w={120}
        />
        <TextInput
          label="Name"
          placeholder="Osu branch"
          value={a.name}
          onChange={(e) => onChange({ ...a, name: e.currentTarget.value })}
          style={{ flex: '1 1 140px' }}
        />
        <TextInput
          label="Address"
          value={a.address}
          onChange={(e) => onChange({ ...a, address: e.currentTarget.value })}
          style={{ flex: '1 1 180px' }}
        />
      </Group>
    );
  if (a.type === 'contact')
    return (
      <Group gap="xs" align="flex-start" wrap="wrap">
        <TextInput
          label={`${n}. Contact name`}
          value={a.name}
          onChange={(e) => onChange({ ...a, name: e.currentTarget.value })}
          error={err('name')}
          style={{ flex: '1 1 160px' }}
        />
        <TextInput
          label="Numbers"
          description="International form, separated by commas"
          placeholder="+233302000000"
          value={a.phones.join(', ')}
          onChange={(e) => onChange({ ...a, phones: e.currentTarget.value.split(',').map((p) => p.trim()) })}
          error={err('phones') ?? Object.entries(errors).find(([f]) => f.startsWith(`attachments.${index}.phones.`))?.[1].message}
          style={{ flex: '1 1 220px' }}
        />
      </Group>
    );
  return <FileAttachmentFields appId={appId} n={n} attachment={a} error={err('value')} onChange={onChange} />;
}

function FileAttachmentFields({
  appId,
  n,
  attachment: a,
  error,
  onChange,
}: {
  appId: string;
  n: number;
  attachment: FileAttachment;
  error?: string;
  onChange: (next: Attachment) => void;
}) {
  const [upload, setUpload] = useState<{ busy: boolean; message: string }>({ busy: false, message: '' });
  const send = async (file: File | null) => {
    if (!file) return;
    setUpload({ busy: true, message: '' });
    const query = new URLSearchParams({ kind: a.kind, appId, fileName: file.name });
    const reply = await uploadFile(`/api/media?${query}`, file);
    if (isOk(reply)) {
      const ref = reply.data as MediaRef;
      onChange({ ...a, value: ref.mediaId, fileName: a.fileName || (ref.fileName ?? file.name) });
      setUpload({ busy: false, message: `Uploaded ${ref.fileName ?? file.name}` });
    } else setUpload({ busy: false, message: failureText(reply, 'The file could not be uploaded.') });
  };
  return (
    <Stack gap={6}>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          label={`${n}. File`}
          aria-label={`Attachment ${n} kind`}
          data={FILE_KIND_OPTIONS}
          value={a.kind}
          onChange={(v) => v && onChange({ ...a, kind: v as MediaKind })}
          allowDeselect={false}
          w={170}
        />
        <SegmentedControl
          aria-label={`Attachment ${n} source`}
          data={SOURCE_OPTIONS}
          value={a.source}
          onChange={(v) => onChange({ ...a, source: v as FileAttachment['source'], value: '' })}
        />
      </Group>
      {a.source === 'upload' ? (
        <Group gap="xs" wrap="wrap">
          <FileButton onChange={(file) => void send(file)} accept={MEDIA_TYPES[a.kind].mimeTypes.join(',')}>
            {(props) => (
              <Button {...props} size="xs" variant="default" leftSection={<IconUpload size={14} />} loading={upload.busy}>
                {a.value ? 'Replace file' : 'Upload file'}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c={error ? 'red.8' : 'dimmed'}>
            {error ?? (upload.message || (a.value ? `File ${a.fileName || a.value}` : 'No file yet'))}
          </Text>
        </Group>
      ) : (
        <TextInput
          aria-label={`Attachment ${n} ${a.source === 'url' ? 'URL' : 'variable'}`}
          placeholder={SOURCE_PLACEHOLDERS[a.source]}
          value={a.value}
          onChange={(e) => onChange({ ...a, value: e.currentTarget.value })}
          error={error}
        />
      )}
      <TextInput
        aria-label={`Attachment ${n} caption`}
        placeholder="Caption (optional; may hold {{ variables }})"
        value={a.caption}
        onChange={(e) => onChange({ ...a, caption: e.currentTarget.value })}
      />
    </Stack>
  );
}
