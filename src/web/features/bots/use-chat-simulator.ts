import { useCallback, useRef, useState } from 'react';
import type { ChatSimulatorBody } from '../../../shared/api/bots.schema';
import { sendChatSimulatorMessage } from '../../../shared/api/bots.calls';
import { mediaRefSchema } from '../../../shared/api/media.schema';
import type { LocationRef, MediaKind } from '../../../shared/media';
import type { WhatsAppMessage } from '../../../shared/whatsapp';
import { failureText, isNetworkFailure, isOk, uploadFile } from '../../lib/api';
import { call } from '../../lib/call';
import { appendEntries, type ChatEntry, toCustomerMessage } from './chat-entries';

export interface ChatSend {
  /** What goes to the bot: the text typed, or a picked choice's id. */
  text: string;
  kind: 'text' | 'choice';
  /** What the customer's bubble shows (a picked row's title); the text when not given. */
  shown?: string;
}

/** What the body adds to the customer's number and the interactive switch. */
type ChatMessageBody = Omit<ChatSimulatorBody, 'from' | 'interactive'>;

/**
 * One conversation with the bot's draft through POST /whatsapp-emulator/{appId}: the bubbles, whether the bot is
 * answering, whether its last reply ended the conversation, and the session id the log and debug panels follow.
 * A file is uploaded first (POST /api/media, for the bot) and sent by its id; a refusal shows in the server's words.
 * A new customer number (`reset`) is a new chat.
 */
export function useChatSimulator(appId: string, from: string, isInteractive: boolean) {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [isEnded, setEnded] = useState(false);
  const [isWaiting, setWaiting] = useState(false);
  const [uploading, setUploading] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Answers to an older chat (the number changed meanwhile) are dropped.
  const chat = useRef(0);

  /** Shows the customer's message and sends it; the bot's reply is added when it comes. */
  const deliver = useCallback(
    async (body: ChatMessageBody, shown: WhatsAppMessage, current: number) => {
      setEntries((old) => appendEntries(old, 'in', [shown], new Date().toISOString()));
      const reply = await call(sendChatSimulatorMessage, { params: { appId }, body: { from, interactive: isInteractive, ...body } });
      if (current !== chat.current) return;
      setWaiting(false);
      if (!isOk(reply) || !reply.data) {
        setError(
          isNetworkFailure(reply)
            ? 'The bot could not be reached. Check your connection and try again.'
            : failureText(reply, 'The bot did not answer.'),
        );
        return;
      }
      const { sessionId, end, messages, messageIds } = reply.data;
      setSessionId(sessionId);
      setEnded(end);
      setEntries((old) => appendEntries(old, 'out', messages, new Date().toISOString(), messageIds));
    },
    [appId, from, isInteractive],
  );

  /** Starts a send: the error cleared, the page waiting; answers the chat it belongs to. */
  const begin = useCallback(() => {
    setError(null);
    setWaiting(true);
    return chat.current;
  }, []);

  const send = useCallback(
    async ({ text, kind, shown }: ChatSend) => deliver({ text, kind }, toCustomerMessage(shown ?? text), begin()),
    [deliver, begin],
  );

  const sendFile = useCallback(
    async (kind: MediaKind, file: File) => {
      const current = begin();
      setUploading(`Uploading ${file.name}…`);
      const query = new URLSearchParams({ kind, appId, fileName: file.name });
      const uploaded = await uploadFile(`/api/media?${query}`, file);
      if (current !== chat.current) return;
      setUploading(null);
      const media = isOk(uploaded) ? mediaRefSchema.safeParse(uploaded.data) : null;
      if (!media?.success) {
        setWaiting(false);
        setError(failureText(uploaded, 'The file could not be uploaded.'));
        return;
      }
      await deliver({ kind: 'media', mediaId: media.data.mediaId }, { type: 'media', media: media.data }, current);
    },
    [appId, deliver, begin],
  );

  const sendLocation = useCallback(
    async (location: LocationRef) => deliver({ kind: 'location', location }, { type: 'location', location }, begin()),
    [deliver, begin],
  );

  const reset = useCallback(() => {
    chat.current += 1;
    setEntries([]);
    setSessionId(null);
    setEnded(false);
    setWaiting(false);
    setUploading(null);
    setError(null);
  }, []);

  return { entries, sessionId, isEnded, isWaiting, uploading, error, send, sendFile, sendLocation, reset };
}
