import { useCallback, useRef, useState } from 'react';
import { sendChatSimulatorMessage } from '../../../shared/api/bots.calls';
import { failureText, isNetworkFailure, isOk } from '../../lib/api';
import { call } from '../../lib/call';
import { appendEntries, type ChatEntry, toCustomerMessage } from './chat-entries';

export interface ChatSend {
  /** What goes to the bot: the text typed, or a picked choice's id. */
  text: string;
  kind: 'text' | 'choice';
  /** What the customer's bubble shows (a picked row's title); the text when not given. */
  shown?: string;
}

/**
 * One conversation with the bot's draft through POST /whatsapp-emulator/{appId}: the bubbles, whether the bot is
 * answering, whether its last reply ended the conversation, and the session id the log and debug panels follow.
 * A new customer number (`reset`) is a new chat.
 */
export function useChatSimulator(appId: string, from: string, isInteractive: boolean) {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [isEnded, setEnded] = useState(false);
  const [isWaiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Answers to an older chat (the number changed meanwhile) are dropped.
  const chat = useRef(0);

  const send = useCallback(
    async ({ text, kind, shown }: ChatSend) => {
      const current = chat.current;
      setError(null);
      setWaiting(true);
      setEntries((old) => appendEntries(old, 'in', [toCustomerMessage(shown ?? text)], new Date().toISOString()));
      const reply = await call(sendChatSimulatorMessage, { params: { appId }, body: { from, text, kind, interactive: isInteractive } });
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

  const reset = useCallback(() => {
    chat.current += 1;
    setEntries([]);
    setSessionId(null);
    setEnded(false);
    setWaiting(false);
    setError(null);
  }, []);

  return { entries, sessionId, isEnded, isWaiting, error, send, reset };
}
