import { Badge, Button, Group, Menu, Modal, Select, Stack, Text, Title, Tooltip, ActionIcon } from '@mantine/core';
import { IconEye, IconFlag, IconMessage2, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { setTemplateStatus, syncTemplates } from '../../../shared/api/whatsapp-templates.calls';
import type { WhatsAppTemplate } from '../../../shared/api/whatsapp-templates.schema';
import { TEMPLATE_STATUSES, type TemplateStatus } from '../../../shared/whatsapp-templates';
import { EmptyPanel, ListSkeleton } from '../../components/list-states';
import { type ListColumn, ListTable } from '../../components/list-table';
import { LoadErrorAlert } from '../../components/load-error-alert';
import { RowAction } from '../../components/row-action';
import { failureText, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { formatMoment, WHOLE_BADGE_STYLES } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { TemplateFormDialog } from './template-form-dialog';
import { TemplatePreview } from './template-preview';
import { useLinkedNumbers } from './use-bots';
import { templatesKey, useDeleteTemplateConfirm, useTemplates } from './use-templates';

const STATUS_COLORS: Record<TemplateStatus, string> = {
  APPROVED: 'teal',
  PENDING: 'yellow',
  REJECTED: 'red',
  PAUSED: 'orange',
  DISABLED: 'gray',
};

function TemplateStatusBadge({ status }: { status: TemplateStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status]} styles={WHOLE_BADGE_STYLES} data-testid="template-status">
      {status}
    </Badge>
  );
}

/** Templates: a linked number's message templates, the only messages it may send first (docs/whatsapp-templates.md). */
export function TemplatePanel({ appId }: { appId: string }) {
  const numbers = useLinkedNumbers(appId);
  const [picked, setPicked] = useState<string | null>(null);
  const linkId = picked ?? numbers.data?.[0]?.linkId ?? '';
  const number = numbers.data?.find((n) => n.linkId === linkId);

  return (
    <Stack gap="md">
      <div>
        <Title order={2} fz="lg">
          Templates
        </Title>
        <Text size="sm" c="dimmed">
          Approved message templates are the only messages a number may send first, outside the 24 hours after a customer last wrote.
        </Text>
      </div>
      {numbers.isPending && <ListSkeleton label="Loading the numbers" rows={2} />}
      {numbers.error && (
        <LoadErrorAlert
          testId="template-numbers-error"
          title="The numbers could not be loaded"
          message={numbers.error.message}
          onRetry={() => void numbers.refetch()}
        />
      )}
      {numbers.data?.length === 0 && (
        <EmptyPanel
          testId="templates-no-numbers"
          icon={<IconMessage2 size={28} />}
          title="No number yet"
          description="Templates belong to a linked number: link one under Connected Numbers first."
        />
      )}
      {numbers.data && numbers.data.length > 0 && (
        <>
          <Select
            label="Number"
            maw={360}
            allowDeselect={false}
            value={linkId}
            onChange={setPicked}
            data={numbers.data.map((n) => ({ value: n.linkId, label: `${n.mobileNumber || 'Not linked yet'} (${n.connector})` }))}
          />
          {number && <NumberTemplates key={number.linkId} linkId={number.linkId} isCloud={number.connector === 'cloud'} />}
        </>
      )}
    </Stack>
  );
}

function NumberTemplates({ linkId, isCloud }: { linkId: string; isCloud: boolean }) {
  const queryClient = useQueryClient();
  const { data, error, isPending, refetch } = useTemplates(linkId);
  const confirmDelete = useDeleteTemplateConfirm(linkId);
  const [isCreating, setCreating] = useState(false);
  const [isSyncing, setSyncing] = useState(false);
  const [previewed, setPreviewed] = useState<WhatsAppTemplate | null>(null);
  const isSimulator = data?.connector === 'simulator';

  async function sync() {
    setSyncing(true);
    const reply = await call(syncTemplates, { params: { id: linkId } });
    setSyncing(false);
    if (isOk(reply)) showToast({ color: 'teal', title: 'Templates synced', message: reply.message });
    else
      showToast({ color: 'red', title: 'Templates not synced', message: failureText(reply, 'Meta could not be read.'), autoClose: 8000 });
    await queryClient.invalidateQueries({ queryKey: templatesKey(linkId) });
  }

  async function setStatus(template: WhatsAppTemplate, status: TemplateStatus) {
    const reason = status === 'APPROVED' ? '' : `Marked ${status} in the console, for testing`;
    const reply = await call(setTemplateStatus, { params: { id: template.templateId }, body: { status, reason } });
    if (isOk(reply)) showToast({ color: 'teal', title: 'Status changed', message: `${template.name} is now ${status}` });
    else showToast({ color: 'red', title: 'Status not changed', message: failureText(reply, 'The status could not be changed.') });
    await queryClient.invalidateQueries({ queryKey: templatesKey(linkId) });
  }

  const columns: ListColumn<WhatsAppTemplate>[] = [
    {
      header: 'Template',
      render: (t) => (
        <>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {t.name}
          </Text>
          <Text size="xs" c="dimmed">
            {t.language} · {t.category.toLowerCase()}
          </Text>
        </>
      ),
    },
    {
      header: 'Body',
      visibleFrom: 'md',
      render: (t) => (
        <Text size="sm" lineClamp={2} maw={320}>
          {t.body}
        </Text>
      ),
    },
    {
      header: 'Status',
      render: (t) => (
        <Stack gap={4} align="flex-start">
          <TemplateStatusBadge status={t.status} />
          {t.reason && (
            <Text size="xs" c="gray.7" maw={240} data-testid="template-reason">
              {t.reason}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      header: 'Actions',
      align: 'right',
      render: (t) => (
        <Group gap={2} justify="flex-end" wrap="nowrap">
          <RowAction label="Preview" ariaLabel={`Preview ${t.name}`} icon={IconEye} onClick={() => setPreviewed(t)} />
          {isSimulator && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Tooltip label="Set status (testing)" withArrow>
                  <ActionIcon variant="subtle" size="lg" aria-label={`Set the status of ${t.name}`}>
                    <IconFlag size={18} />
                  </ActionIcon>
                </Tooltip>
              </Menu.Target>
              <Menu.Dropdown>
                {TEMPLATE_STATUSES.filter((s) => s !== 'PENDING' && s !== t.status).map((s) => (
                  <Menu.Item key={s} onClick={() => void setStatus(t, s)}>
                    Mark {s}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          <RowAction label="Delete" ariaLabel={`Delete ${t.name}`} icon={IconTrash} color="red" onClick={() => confirmDelete(t)} />
        </Group>
      ),
    },
  ];

  const newButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
      New Template
    </Button>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        {isCloud ? (
          <Group gap="sm">
            <Button variant="default" leftSection={<IconRefresh size={18} />} loading={isSyncing} onClick={() => void sync()}>
              Sync now
            </Button>
            <Text size="sm" c="dimmed" data-testid="templates-synced">
              {isSyncing ? 'Reading the templates from Meta…' : `Last synced: ${formatMoment(data?.syncedAt ?? null)}`}
            </Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Templates on this number need no review: each is approved when saved.
          </Text>
        )}
        {data && data.templates.length > 0 && newButton}
      </Group>
      {isPending && <ListSkeleton label="Loading the templates" rows={3} />}
      {error && (
        <LoadErrorAlert
          testId="templates-error"
          title="The templates could not be loaded"
          message={error.message}
          onRetry={() => void refetch()}
        />
      )}
      {data?.templates.length === 0 && (
        <EmptyPanel
          testId="templates-empty"
          icon={<IconMessage2 size={28} />}
          title="No templates yet"
          description={
            isCloud ? 'Sync the templates your business has on Meta, or write a new one.' : 'Write one to send it first to customers.'
          }
          action={newButton}
        />
      )}
      {data && data.templates.length > 0 && (
        <ListTable rows={data.templates} columns={columns} getRowKey={(t) => t.templateId} label="Templates" testId="templates-table" />
      )}
      <TemplateFormDialog linkId={linkId} isCloud={isCloud} opened={isCreating} onClose={() => setCreating(false)} />
      <Modal
        opened={previewed !== null}
        onClose={() => setPreviewed(null)}
        title={previewed ? `${previewed.name} (${previewed.language})` : ''}
        centered
      >
        {previewed && (
          <TemplatePreview
            parts={{
              header: previewed.header ?? undefined,
              body: previewed.body,
              footer: previewed.footer ?? undefined,
              buttons: previewed.buttons,
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
