import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type Bot, BOT_MESSAGES, type LinkedNumber } from '../../../shared/api/bots.schema';
import type { WhatsAppConnectorName } from '../../../shared/whatsapp';
import { failureText, isOk, readData } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { deleteBot, findBots, findLinkedNumbers, getBot, getWhatsAppConnector, unlinkNumber } from './bots.api';

/** GET /api/chatbot/apps: the signed-in account's bots, newest first. */
export function useBots() {
  return useQuery({
    queryKey: queryKeys.bots,
    queryFn: async (): Promise<Bot[]> => readData(await findBots(), 'The bots could not be loaded.'),
  });
}

/** GET /api/chatbot/app/{appId}: the bot Bot Settings edits. */
export function useBot(appId: string) {
  return useQuery({
    queryKey: queryKeys.bot(appId),
    queryFn: async (): Promise<Bot> => readData(await getBot(appId), BOT_MESSAGES.fetchSettingsFailed),
    retry: 1,
  });
}

/** GET /api/chatbot/whatsapp/list-numbers/{appId}: the numbers linked (or being linked) to the bot. */
export function useLinkedNumbers(appId: string) {
  return useQuery({
    queryKey: queryKeys.linkedNumbers(appId),
    queryFn: async (): Promise<LinkedNumber[]> => readData(await findLinkedNumbers(appId), BOT_MESSAGES.fetchNumbersFailed),
  });
}

/**
 * GET /api/chatbot/whatsapp/connector: how this installation links numbers. Until it answers (or when it cannot)
 * the Add Number dialog assumes a QR code, as Baileys and the simulator both show one.
 */
export function useWhatsAppConnector(): WhatsAppConnectorName | undefined {
  const { data } = useQuery({
    queryKey: queryKeys.whatsappConnector,
    queryFn: async () => readData(await getWhatsAppConnector(), 'The WhatsApp connector could not be read.').connector,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return data;
}

/** Asks 'Are you sure you want to delete this bot?', then DELETE /api/chatbot/app/{id}; toasts the server's message. */
export function useDeleteBotConfirm(): (bot: Pick<Bot, 'appId' | 'appName'>) => void {
  const queryClient = useQueryClient();
  return (bot) =>
    modals.openConfirmModal({
      title: `Delete ${bot.appName}`,
      centered: true,
      children: BOT_MESSAGES.deleteConfirm,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await deleteBot(bot.appId);
        if (isOk(reply)) {
          notifications.show({ color: 'teal', title: 'Bot deleted', message: reply.message || BOT_MESSAGES.deleted });
          queryClient.removeQueries({ queryKey: queryKeys.bot(bot.appId) });
          queryClient.removeQueries({ queryKey: queryKeys.app(bot.appId) });
          await queryClient.invalidateQueries({ queryKey: queryKeys.bots });
        } else {
          notifications.show({ color: 'red', title: 'Bot not deleted', message: failureText(reply, 'The bot could not be deleted.') });
        }
      },
    });
}

/** Asks 'Are you sure you want to unlink this number?', then GET /api/chatbot/whatsapp/unlink/{linkId}. */
export function useUnlinkNumberConfirm(appId: string): (number: Pick<LinkedNumber, 'linkId' | 'mobileNumber'>) => void {
  const queryClient = useQueryClient();
  return (number) =>
    modals.openConfirmModal({
      title: number.mobileNumber ? `Unlink ${number.mobileNumber}` : 'Unlink this number',
      centered: true,
      children: BOT_MESSAGES.unlinkConfirm,
      labels: { confirm: 'Unlink', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await unlinkNumber(number.linkId);
        if (isOk(reply)) notifications.show({ color: 'teal', title: 'Number unlinked', message: reply.message || BOT_MESSAGES.unlinked });
        else
          notifications.show({
            color: 'red',
            title: 'Number not unlinked',
            message: failureText(reply, 'The number could not be unlinked.'),
          });
        await queryClient.invalidateQueries({ queryKey: queryKeys.linkedNumbers(appId) });
      },
    });
}
