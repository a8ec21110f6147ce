import { Button, Grid, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconEdit, IconMessageBolt, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createInboxSavedReply, deleteInboxSavedReply, updateInboxSavedReply } from '../../../shared/api/inbox.calls';
import { inboxSavedReplyBodySchema, SAVED_REPLY_LIMITS, type InboxSavedReply } from '../../../shared/api/inbox.schema';
import { BackLink } from '../../components/back-link';
import { FormAlert } from '../../components/form-alert';
import { ListSection } from '../../components/list-section';
import { EmptyPanel } from '../../components/list-states';
import { ListTable } from '../../components/list-table';
import { PageHeader } from '../../components/page-header';
import { RoleGuard } from '../../components/role-guard';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { showToast } from '../../lib/toast';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { INBOX_KEY, INBOX_PATH, inboxSavedRepliesQuery } from './inbox.api';
import { SAVED_REPLIES_EXPLAINED } from './inbox-saved-replies';

/**
 * Saved replies (docs/inbox.md, "Saved replies"): the account's owner writes the short answers its agents put into
 * the reply box, changes and deletes them. Agents use them from the reply box; this screen is the owner's.
 */
export function InboxSavedRepliesPage() {
  const [editing, setEditing] = useState<InboxSavedReply | null>(null);
  return (
    <RoleGuard audience="everyone" redirectTo={INBOX_PATH}>
      <Stack gap="xl">
        <div>
          <BackLink to={INBOX_PATH} label="Inbox" />
          <PageHeader title="Saved replies" description={SAVED_REPLIES_EXPLAINED} />
        </div>
        <Grid gap="lg" align="flex-start">
          <Grid.Col span={{ base: 12, md: 5 }}>
            <SavedReplyForm key={editing?.savedReplyId ?? 'new'} editing={editing} onDone={() => setEditing(null)} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <SavedReplyList onEdit={setEditing} />
          </Grid.Col>
        </Grid>
      </Stack>
    </RoleGuard>
  );
}

/** Adds a saved reply, or changes the one chosen for editing. */
function SavedReplyForm({ editing, onDone }: { editing: InboxSavedReply | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const form = useForm({ mode: 'controlled', initialValues: { title: editing?.title ?? '', text: editing?.text ?? '' } });

  const handleSubmit = form.onSubmit(async (values) => {
    const parsed = inboxSavedReplyBodySchema.safeParse(values);
    if (!parsed.success) return setMessage(parsed.error.issues[0]?.message ?? null);
    setMessage(null);
    setSubmitting(true);
    const reply = editing
      ? await call(updateInboxSavedReply, { params: { savedReplyId: editing.savedReplyId }, body: parsed.data })
      : await call(createInboxSavedReply, { body: parsed.data });
    setSubmitting(false);
    if (!isOk(reply)) return setMessage(failureText(reply, 'The saved reply was not kept.'));
    await queryClient.invalidateQueries({ queryKey: INBOX_KEY });
    form.reset();
    showToast({ color: 'teal', title: editing ? 'Saved reply changed' : 'Saved reply added', message: parsed.data.title });
    onDone();
  });

  const heading = editing ? 'Change a saved reply' : 'Add a saved reply';
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="saved-reply-form-heading">
      <Title order={2} fz="lg" id="saved-reply-form-heading" mb="md">
        {heading}
      </Title>
      <form onSubmit={handleSubmit} noValidate aria-label={heading}>
        <Stack gap="md">
          <FormAlert message={message} onClose={() => setMessage(null)} />
          <TextInput
            label="Title"
            description="What agents see in the menu"
            maxLength={SAVED_REPLY_LIMITS.title}
            autoComplete="off"
            {...form.getInputProps('title')}
          />
          <Textarea
            label="Text"
            description={`What goes into the reply box, up to ${SAVED_REPLY_LIMITS.text.toLocaleString('en')} characters`}
            autosize
            minRows={4}
            maxRows={10}
            maxLength={SAVED_REPLY_LIMITS.text}
            {...form.getInputProps('text')}
          />
          <Group gap="xs">
            <Button
              type="submit"
              loading={isSubmitting}
              leftSection={editing ? <IconDeviceFloppy size={16} /> : <IconPlus size={16} />}
              w="fit-content"
            >
              {editing ? 'Change saved reply' : 'Add saved reply'}
            </Button>
            {editing && (
              <Button variant="default" onClick={onDone}>
                Cancel
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function SavedReplyList({ onEdit }: { onEdit: (row: InboxSavedReply) => void }) {
  const saved = useQuery(inboxSavedRepliesQuery());
  const confirm = useConfirmedCall(INBOX_KEY);
  return (
    <ListSection
      query={saved}
      loadingLabel="Loading saved replies"
      errorTitle="Saved replies not loaded"
      errorTestId="saved-replies-error"
      empty={
        <EmptyPanel
          icon={<IconMessageBolt size={28} />}
          title="No saved replies yet"
          description="Add the answers your agents write most often: they pick one in the reply box and edit it before sending."
          testId="saved-replies-empty"
        />
      }
    >
      {(rows: InboxSavedReply[]) => (
        <ListTable
          rows={rows}
          label="Saved replies"
          testId="saved-reply-list"
          getRowKey={(row) => row.savedReplyId}
          getRowMark={(row) => row.title}
          columns={[
            {
              header: 'Saved reply',
              render: (row) => (
                <>
                  <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {row.title}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={3} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {row.text}
                  </Text>
                </>
              ),
            },
            {
              header: '',
              align: 'right',
              render: (row) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="subtle"
                    leftSection={<IconEdit size={14} />}
                    aria-label={`Edit ${row.title}`}
                    onClick={() => onEdit(row)}
                  >
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={14} />}
                    aria-label={`Delete ${row.title}`}
                    onClick={() =>
                      confirm({
                        title: `Delete ${row.title}`,
                        question: `Delete the saved reply "${row.title}"? Replies already sent with it stay as they are.`,
                        done: { title: 'Deleted', message: 'Saved reply deleted' },
                        refused: { title: 'Not deleted', message: 'The saved reply could not be deleted.' },
                        call: () => call(deleteInboxSavedReply, { params: { savedReplyId: row.savedReplyId } }),
                      })
                    }
                  >
                    Delete
                  </Button>
                </Group>
              ),
            },
          ]}
        />
      )}
    </ListSection>
  );
}
