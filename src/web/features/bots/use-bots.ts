import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type Bot, BOT_MESSAGES, type LinkedNumber, type WhatsAppConnectors } from '../../../shared/api/bots.schema';
import { readData } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import { call, callQuery, queryKey } from '../../lib/call';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import { deleteBot, findBots, findLinkedNumbers, getBot, getWhatsAppConnector, unlinkNumber } from '../../../shared/api/bots.calls';

/** The bot list's key, the prefix of each bot's and its linked numbers' (bots.calls.ts). */
export const BOTS_KEY = queryKey(findBots);

/** A bot's linked numbers' key, which linking and unlinking reload. */
export const linkedNumbersKey = (appId: string) => queryKey(findLinkedNumbers, { params: { id: appId } });

/** GET /api/chatbot/apps: the signed-in account's bots, newest first. */
export function useBots() {
  return useQuery(callQuery(findBots, {}, 'The bots could not be loaded.'));
}

/** GET /api/chatbot/app/{appId}: the bot Bot Settings edits. */
export function useBot(appId: string) {
  return useQuery({ ...callQuery(getBot, { params: { id: appId } }, BOT_MESSAGES.fetchSettingsFailed), retry: 1 });
}

/** GET /api/chatbot/whatsapp/list-numbers/{appId}: the numbers linked (or being linked) to the bot. */
export function useLinkedNumbers(appId: string) {
  return useQuery(callQuery(findLinkedNumbers, { params: { id: appId } }, BOT_MESSAGES.fetchNumbersFailed));
}

/**
 * GET /api/chatbot/whatsapp/connector: the kinds of number this installation links, and Embedded Signup's ids when
 * it is set up. Until it answers (or when it cannot) the Add Number dialog assumes a QR code, as Baileys and the
 * simulator both show one.
 */
export function useWhatsAppConnectors(): WhatsAppConnectors | undefined {
  const { data } = useQuery({
    queryKey: queryKey(getWhatsAppConnector),
    queryFn: async () => readData(await call(getWhatsAppConnector), 'The WhatsApp connectors could not be read.'),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return data;
}

/** Asks 'Are you sure you want to delete this bot?', then DELETE /api/chatbot/app/{id}; toasts the server's message. */
export function useDeleteBotConfirm(): (bot: Pick<Bot, 'appId' | 'appName'>) => void {
  const queryClient = useQueryClient();
  const confirm = useConfirmedCall(BOTS_KEY);
  return (bot) =>
    confirm({
      title: `Delete ${bot.appName}`,
      question: BOT_MESSAGES.deleteConfirm,
      done: { title: 'Bot deleted', message: BOT_MESSAGES.deleted },
      refused: { title: 'Bot not deleted', message: 'The bot could not be deleted.' },
      call: () => call(deleteBot, { params: { id: bot.appId } }),
      onDone: () => queryClient.removeQueries({ queryKey: queryKeys.app(bot.appId) }),
    });
}

/** Asks 'Are you sure you want to unlink this number?', then GET /api/chatbot/whatsapp/unlink/{linkId}. */
export function useUnlinkNumberConfirm(appId: string): (number: Pick<LinkedNumber, 'linkId' | 'mobileNumber'>) => void {
  const confirm = useConfirmedCall(linkedNumbersKey(appId));
  return (number) =>
    confirm({
      title: number.mobileNumber ? `Unlink ${number.mobileNumber}` : 'Unlink this number',
      question: BOT_MESSAGES.unlinkConfirm,
      confirmLabel: 'Unlink',
      done: { title: 'Number unlinked', message: BOT_MESSAGES.unlinked },
      refused: { title: 'Number not unlinked', message: 'The number could not be unlinked.' },
      call: () => call(unlinkNumber, { params: { id: number.linkId } }),
    });
}
