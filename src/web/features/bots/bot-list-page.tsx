import { Button, Group, Stack, Text } from '@mantine/core';
import { IconBrandWhatsapp, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { Bot } from '../../../shared/api/bots.schema';
import { PageHeader } from '../../components/page-header';
import { EmptyPanel } from '../../components/list-states';
import { ListSection } from '../../components/list-section';
import { BotCreateDialog } from './bot-create-dialog';
import { BotRowActions } from './bot-row-actions';
import { BotStatusBadge } from './bot-status-badge';
import { useBots, useDeleteBotConfirm } from './use-bots';
import { NameText } from '../../components/name-text';
import { type ListColumn, ListTable } from '../../components/list-table';
import { RoleGuard } from '../../components/role-guard';

const countNumbers = (count: number) => (count === 0 ? 'No number connected' : `${count} ${count === 1 ? 'number' : 'numbers'} connected`);

/** WhatsApp bot list (/whatsapp-bots, admins and chatbot users): Bot Name, Description, Status, Actions and New Bot. */
export function BotListPage() {
  return (
    <RoleGuard audience={['bot.build', 'chatbot']}>
      <BotList />
    </RoleGuard>
  );
}

function BotList() {
  const botsQuery = useBots();
  const bots = botsQuery.data;
  const [isCreateOpen, setCreateOpen] = useState(false);
  const confirmDelete = useDeleteBotConfirm();

  const columns: ListColumn<Bot>[] = [
    {
      header: 'Bot Name',
      cellProps: { style: { minWidth: 0 } },
      render: (bot) => (
        <>
          <NameText fw={600} size="sm" maw={{ base: 280, sm: 320 }}>
            {bot.appName}
          </NameText>
          {/* Narrower, the description folds in here; on a phone the status and the actions too. */}
          <Text size="xs" c="dimmed" lineClamp={2} hiddenFrom="md">
            {bot.description}
          </Text>
          <Stack gap={6} mt={8} hiddenFrom="sm">
            <Group gap="xs">
              <BotStatusBadge status={bot.status} />
              <Text size="xs" c="dimmed">
                {countNumbers(bot.connectedNumbers)}
              </Text>
            </Group>
            <BotRowActions bot={bot} onDelete={confirmDelete} justify="flex-start" />
          </Stack>
        </>
      ),
    },
    {
      header: 'Description',
      visibleFrom: 'md',
      cellProps: { maw: 420 },
      render: (bot) => (
        <Text size="sm" lineClamp={2}>
          {bot.description}
        </Text>
      ),
    },
    {
      header: 'Status',
      visibleFrom: 'sm',
      render: (bot) => (
        <Stack gap={4} align="flex-start">
          <BotStatusBadge status={bot.status} />
          <Text size="xs" c="dimmed">
            {countNumbers(bot.connectedNumbers)}
          </Text>
        </Stack>
      ),
    },
    { header: 'Actions', align: 'right', visibleFrom: 'sm', render: (bot) => <BotRowActions bot={bot} onDelete={confirmDelete} /> },
  ];

  const newButton = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setCreateOpen(true)}>
      New Bot
    </Button>
  );

  return (
    <Stack gap="xl">
      <title>WhatsApp Bots · Dialflow</title>
      <PageHeader
        title="WhatsApp Bots"
        description={
          bots && bots.length > 0
            ? `${bots.length} ${bots.length === 1 ? 'bot' : 'bots'}. Design their menus, try them in the chat simulator, and link the WhatsApp numbers they answer on.`
            : 'Bots answer your customers on WhatsApp with the same menus as a USSD app.'
        }
        action={newButton}
      />

      <ListSection
        query={botsQuery}
        loadingLabel="Loading bots"
        errorTitle="Bots not loaded"
        errorTestId="bots-error"
        empty={
          <EmptyPanel
            testId="bots-empty"
            icon={<IconBrandWhatsapp size={28} />}
            title="No bots yet"
            description="Create a bot, design its menus, then link a WhatsApp number so customers can chat with it."
            action={newButton}
          />
        }
      >
        {(rows) => (
          <ListTable
            rows={rows}
            columns={columns}
            getRowKey={(bot) => bot.appId}
            getRowMark={(bot) => bot.appName}
            label="WhatsApp Bots"
            testId="bots-table"
          />
        )}
      </ListSection>

      <BotCreateDialog opened={isCreateOpen} onClose={() => setCreateOpen(false)} />
    </Stack>
  );
}
