import { type Bot, handoffKeywordsSchema } from '../../../shared/api/bots.schema';
import { DEFAULT_HANDOFF_TEXT } from '../../../shared/inbox';
import { BotLanguageWordsForm, type LanguageField } from './bot-language-words-form';

const FIELDS: readonly LanguageField<'words' | 'reply'>[] = [
  { key: 'words', kind: 'words', label: 'Handoff words', placeholder: 'e.g. agent' },
  { key: 'reply', kind: 'text', label: 'Handoff answer', placeholder: DEFAULT_HANDOFF_TEXT },
];

/**
 * The bot's handoff words and answers per language (docs/inbox.md, "Handing over"): a message that is one of the
 * words hands the conversation to the inbox from any screen; saved as `handoffKeywords`.
 */
export function BotHandoffWordsForm({ bot }: { bot: Bot }) {
  return (
    <BotLanguageWordsForm
      bot={bot}
      title="Handoff words"
      description="A customer who sends one of these words, from any screen, is handed to a person: the bot stops answering them and the conversation opens in the Inbox until an agent closes it. The answer tells them so, in the word's language."
      emptyText="No handoff words: only a menu rule set to Hand to a person opens a conversation in the Inbox."
      testId="handoff-words"
      fields={FIELDS}
      schema={handoffKeywordsSchema}
      stored={bot.handoffKeywords}
      bodyKey="handoffKeywords"
      savedMessage="These words hand the conversation to a person from now on."
    />
  );
}
