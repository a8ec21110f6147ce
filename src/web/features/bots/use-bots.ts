import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type Bot, BOT_MESSAGES, type LinkedNumber } from '../../../shared/api/bots.schema';
import type { WhatsAppConnectorName } from '../../../shared/whatsapp';
import { readData } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
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
  const confirm = useConfirmedCall(queryKeys.bots);
  return (bot) =>
    confirm({
      title: `Delete ${bot.appName}`,
      question: BOT_MESSAGES.deleteConfirm,
      done: { title: 'Bot deleted', message: BOT_MESSAGES.deleted },
      refused: { title: 'Bot not deleted', message: 'The bot could not be deleted.' },
      call: () => deleteBot(bot.appId),
      onDone: () => queryClient.removeQueries({ queryKey: queryKeys.app(bot.appId) }),
    });
}

/** Asks 'Are you sure you want to unlink this number?', then GET /api/chatbot/whatsapp/unlink/{linkId}. */
export function useUnlinkNumberConfirm(appId: string): (number: Pick<LinkedNumber, 'linkId' | 'mobileNumber'>) => void {
  const confirm = useConfirmedCall(queryKeys.linkedNumbers(appId));
  return (number) =>
    confirm({
      title: number.mobileNumber ? `Unlink ${number.mobileNumber}` : 'Unlink this number',
      question: BOT_MESSAGES.unlinkConfirm,
      confirmLabel: 'Unlink',
      done: { title: 'Number unlinked', message: BOT_MESSAGES.unlinked },
      refused: { title: 'Number not unlinked', message: 'The number could not be unlinked.' },
      call: () => unlinkNumber(number.linkId),
    });
}
