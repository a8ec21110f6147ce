import { type Bot, consentKeywordsSchema } from '../../../shared/api/bots.schema';
import { DEFAULT_OPT_IN_REPLY, DEFAULT_OPT_OUT_REPLY, START_WORDS, STOP_WORDS } from '../../../shared/contact-consent';
import { BotLanguageWordsForm, type LanguageField } from './bot-language-words-form';

const FIELDS: readonly LanguageField<'optOutWords' | 'optInWords' | 'optOutReply' | 'optInReply'>[] = [
  { key: 'optOutWords', kind: 'words', label: 'Opt-out words', placeholder: 'e.g. arrêt' },
  { key: 'optInWords', kind: 'words', label: 'Opt-in words', placeholder: 'e.g. reprendre' },
  { key: 'optOutReply', kind: 'text', label: 'Opt-out answer', placeholder: DEFAULT_OPT_OUT_REPLY },
  { key: 'optInReply', kind: 'text', label: 'Opt-in answer', placeholder: DEFAULT_OPT_IN_REPLY },
];

/**
 * The bot's own consent words and answers per language (docs/contacts.md, "Keywords on WhatsApp"), beside STOP and
 * START which every bot honours; saved as `consentKeywords`.
 */
export function BotConsentWordsForm({ bot }: { bot: Bot }) {
  return (
    <BotLanguageWordsForm
      bot={bot}
      title="Consent words"
      description={
        <>
          {STOP_WORDS.map((w) => w.toUpperCase()).join(', ')} opt a person out of the bot's messages and{' '}
          {START_WORDS.map((w) => w.toUpperCase()).join(', ')} back in, on every bot. Add your own words per language, and the answer sent
          in that language ({'{app}'} is the bot's name).
        </>
      }
      emptyText="No words of this bot's own: STOP and START only, answered with the default sentences."
      testId="consent-words"
      fields={FIELDS}
      schema={consentKeywordsSchema}
      stored={bot.consentKeywords}
      bodyKey="consentKeywords"
      savedMessage="The bot answers these words from now on."
    />
  );
}
