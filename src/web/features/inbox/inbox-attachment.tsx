import { ActionIcon, Alert, CloseButton, FileButton, Group, Loader, Paper, Text } from '@mantine/core';
import { IconFile, IconPaperclip } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { formatBytes } from '../../../shared/app/menu-media.schema';
import { mediaRefSchema } from '../../../shared/api/media.schema';
import { MEDIA_KINDS, MEDIA_TYPES, mediaKindOf, type MediaRef } from '../../../shared/media';
import { failureText, isOk, uploadFile } from '../../lib/api';

/** Every type WhatsApp takes as an image, a document, an audio or a video: what the file picker offers. */
const ACCEPTED = MEDIA_KINDS.flatMap((kind) => MEDIA_TYPES[kind].mimeTypes).join(',');

interface AttachmentState {
  file: File | null;
  /** The stored file, once the upload answered. */
  media: MediaRef | null;
  uploading: boolean;
  /** The server's refusal (too big, a type WhatsApp does not take), in its words. */
  error: string | null;
}

const NONE: AttachmentState = { file: null, media: null, uploading: false, error: null };

/**
 * A file for an agent's reply (docs/inbox.md): uploaded as soon as it is chosen (POST /api/media, the account's
 * file, with its kind's limits), so a refusal shows before the reply is written; the reply then sends its id.
 */
export function useInboxAttachment() {
  const [state, setState] = useState<AttachmentState>(NONE);
  // The upload still wanted: one removed or replaced meanwhile is not shown when it answers.
  const latest = useRef(0);

  async function choose(file: File | null) {
    if (!file) return;
    const attempt = ++latest.current;
    setState({ file, media: null, uploading: true, error: null });
    const kind = mediaKindOf(file.type);
    const query = new URLSearchParams({ fileName: file.name, ...(kind ? { kind } : {}) });
    const reply = await uploadFile(`/api/media?${query}`, file);
    if (attempt !== latest.current) return;
    const media = isOk(reply) ? mediaRefSchema.safeParse(reply.data) : null;
    setState(
      media?.success
        ? { file, media: media.data, uploading: false, error: null }
        : { file, media: null, uploading: false, error: failureText(reply, 'The file could not be uploaded.') },
    );
  }

  function clear() {
    latest.current += 1;
    setState(NONE);
  }

  return { ...state, choose, clear };
}

export type InboxAttachmentValue = ReturnType<typeof useInboxAttachment>;

/**
 * The composer's file: a paperclip that opens the file picker, then the chosen file as a chip (its name, size, a
 * busy mark while it uploads, a remove button) and the server's refusal under it.
 */
export function InboxAttachment({ attachment, disabled }: { attachment: InboxAttachmentValue; disabled?: boolean }) {
  const { file, uploading, error } = attachment;
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap" data-testid="inbox-attachment">
      <FileButton onChange={(chosen) => void attachment.choose(chosen)} accept={ACCEPTED} disabled={disabled}>
        {(props) => (
          <ActionIcon {...props} variant="default" size="lg" aria-label="Attach a file" disabled={disabled}>
            <IconPaperclip size={18} aria-hidden="true" />
          </ActionIcon>
        )}
      </FileButton>
      {file && (
        <div style={{ flex: 1, minWidth: 0 }}>
          <Paper withBorder radius="xl" px="sm" py={4} data-testid="inbox-attachment-chip" aria-busy={uploading}>
            <Group gap={6} wrap="nowrap">
              {uploading ? <Loader size={14} aria-label="Uploading the file" /> : <IconFile size={16} aria-hidden="true" />}
              {/* No width of its own: a long name is cut, never widening the page (a phone). */}
              <Text size="sm" truncate="end" style={{ flex: '1 1 0', minWidth: 0, width: 0 }} title={file.name}>
                {file.name}
              </Text>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {uploading ? 'Uploading…' : formatBytes(file.size)}
              </Text>
              <CloseButton size="sm" aria-label={`Remove ${file.name}`} onClick={attachment.clear} />
            </Group>
          </Paper>
          {error && (
            <Alert color="red" variant="light" role="alert" mt={6} p="xs" data-testid="inbox-attachment-error">
              {error}
            </Alert>
          )}
        </div>
      )}
    </Group>
  );
}
