import { z } from 'zod';
import { DEFAULT_VALIDATION_MESSAGE } from './input-validation.schema';

/**
 * The languages an app may speak (docs/languages.md): ISO 639-1 codes, ISO 639-3 where a language has no
 * two-letter code. A fixed list: the designer offers these, the API refuses any other code.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'fr', name: 'French' },
  { code: 'pt', name: 'Portuguese' },
  { code: 'ar', name: 'Arabic' },
  { code: 'sw', name: 'Swahili' },
  { code: 'ak', name: 'Akan' },
  { code: 'tw', name: 'Twi' },
  { code: 'ee', name: 'Ewe' },
  { code: 'gaa', name: 'Ga' },
  { code: 'dag', name: 'Dagbani' },
  { code: 'ha', name: 'Hausa' },
  { code: 'yo', name: 'Yoruba' },
  { code: 'ig', name: 'Igbo' },
  { code: 'pcm', name: 'Nigerian Pidgin' },
  { code: 'wo', name: 'Wolof' },
  { code: 'ff', name: 'Fula' },
  { code: 'bm', name: 'Bambara' },
  { code: 'ln', name: 'Lingala' },
  { code: 'rw', name: 'Kinyarwanda' },
  { code: 'rn', name: 'Kirundi' },
  { code: 'ny', name: 'Chichewa' },
  { code: 'ss', name: 'Swati' },
  { code: 'st', name: 'Sesotho' },
  { code: 'zu', name: 'Zulu' },
  { code: 'xh', name: 'Xhosa' },
  { code: 'af', name: 'Afrikaans' },
  { code: 'sn', name: 'Shona' },
  { code: 'am', name: 'Amharic' },
  { code: 'ti', name: 'Tigrinya' },
  { code: 'so', name: 'Somali' },
  { code: 'om', name: 'Oromo' },
  { code: 'lg', name: 'Luganda' },
  { code: 'kr', name: 'Kanuri' },
  { code: 'mfe', name: 'Mauritian Creole' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];

const NAMES = new Map<string, string>(LANGUAGES.map((l) => [l.code, l.name]));

export function isLanguageCode(code: unknown): code is LanguageCode {
  return typeof code === 'string' && NAMES.has(code);
}

/** `French`; the code itself for one not in the list. */
export const getLanguageName = (code: string): string => NAMES.get(code) ?? code;

/** `French (fr)`; the code alone for one not in the list. */
export function describeLanguage(code: string): string {
  const name = NAMES.get(code);
  return name ? `${name} (${code})` : code;
}

export const LANGUAGE_MESSAGES = {
  unknown: (code: string) => `Unknown language code "${code}": pick one from the list of languages.`,
  notInApp: (code: string) => `${describeLanguage(code)} is not one of this app's languages: add it in the app settings first.`,
  defaultRepeated: 'The default language cannot also be one of the other languages.',
  repeated: 'A language is listed twice.',
  prefixInvalid: 'A country calling code is 1 to 4 digits, without + or 00 (e.g. 225).',
  prefixRepeated: (prefix: string) => `The calling code ${prefix} is mapped twice.`,
  prefixLanguage: (code: string) => `${describeLanguage(code)} is not one of this app's languages.`,
} as const;

export const languageCodeSchema = z.string().refine(isLanguageCode, { error: (issue) => LANGUAGE_MESSAGES.unknown(String(issue.input)) });

/**
 * The engine's own words, per language: `98. More` (its `More`), the `Invalid choice` and `Invalid input` notices,
 * the `Thank you.` of a Terminate rule without a closing text, the unavailable text of a failed hop.
 */
export const ENGINE_LABEL_KEYS = ['more', 'invalidChoice', 'invalidInput', 'thankYou', 'unavailable'] as const;
export type EngineLabelKey = (typeof ENGINE_LABEL_KEYS)[number];
export type EngineLabels = Record<EngineLabelKey, string>;

/** The built-in English words, used wherever an app gives none of its own. */
export const DEFAULT_ENGINE_LABELS: EngineLabels = {
  more: 'More',
  invalidChoice: 'Invalid choice',
  invalidInput: DEFAULT_VALIDATION_MESSAGE,
  thankYou: 'Thank you.',
  unavailable: 'Service temporarily unavailable. Please try again.',
};

/** The longest each word may be: `More` must leave room for text on a page. */
export const ENGINE_LABEL_MAX: Record<EngineLabelKey, number> = {
  more: 20,
  invalidChoice: 60,
  invalidInput: 60,
  thankYou: 100,
  unavailable: 100,
};

const label = (key: EngineLabelKey) => z.string().trim().max(ENGINE_LABEL_MAX[key]).optional();
export const engineLabelsSchema = z.object({
  more: label('more'),
  invalidChoice: label('invalidChoice'),
  invalidInput: label('invalidInput'),
  thankYou: label('thankYou'),
  unavailable: label('unavailable'),
});

/** A map from language codes to values, every key a known code (unknown ones are refused with their own message). */
export function languageRecord<T extends z.ZodType>(value: T) {
  return z.record(z.string().max(8), value).superRefine((record, ctx) => {
    for (const code of Object.keys(record))
      if (!isLanguageCode(code)) ctx.addIssue({ code: 'custom', message: LANGUAGE_MESSAGES.unknown(code), path: [code] });
  });
}

/** One country calling code (digits, no `+`) and the language a dialler from it starts in. */
export const prefixLanguageSchema = z.object({
  prefix: z.string().regex(/^\d{1,4}$/, { message: LANGUAGE_MESSAGES.prefixInvalid }),
  language: languageCodeSchema,
});
export type PrefixLanguage = z.infer<typeof prefixLanguageSchema>;

/**
 * An app's languages: its default (the menus' own fields) and the others its menus may be translated into,
 * the engine's words per language, and optionally the language a dialler starts in by their country calling code.
 */
export const appLanguagesSchema = z
  .object({
    defaultLanguage: languageCodeSchema,
    otherLanguages: z.array(languageCodeSchema).max(20).default([]),
    labels: languageRecord(engineLabelsSchema).default({}),
    prefixLanguages: z.array(prefixLanguageSchema).max(50).default([]),
  })
  .superRefine((value, ctx) => {
    if (value.otherLanguages.includes(value.defaultLanguage))
      ctx.addIssue({ code: 'custom', message: LANGUAGE_MESSAGES.defaultRepeated, path: ['otherLanguages'] });
    if (new Set(value.otherLanguages).size !== value.otherLanguages.length)
      ctx.addIssue({ code: 'custom', message: LANGUAGE_MESSAGES.repeated, path: ['otherLanguages'] });
    const known = new Set<string>([value.defaultLanguage, ...value.otherLanguages]);
    const seen = new Set<string>();
    value.prefixLanguages.forEach((p, i) => {
      if (seen.has(p.prefix))
        ctx.addIssue({ code: 'custom', message: LANGUAGE_MESSAGES.prefixRepeated(p.prefix), path: ['prefixLanguages', i] });
      seen.add(p.prefix);
      if (!known.has(p.language))
        ctx.addIssue({ code: 'custom', message: LANGUAGE_MESSAGES.prefixLanguage(p.language), path: ['prefixLanguages', i, 'language'] });
    });
    for (const code of Object.keys(value.labels))
      if (!known.has(code)) ctx.addIssue({ code: 'custom', message: LANGUAGE_MESSAGES.notInApp(code), path: ['labels', code] });
  });
export type AppLanguages = z.infer<typeof appLanguagesSchema>;
export type AppLanguagesInput = z.input<typeof appLanguagesSchema>;

/** Every language of the app, the default first; `[]` for an app without languages. */
export function listAppLanguages(languages: AppLanguages | null | undefined): string[] {
  return languages ? [languages.defaultLanguage, ...languages.otherLanguages] : [];
}

/**
 * The language a dialler starts in: the longest calling code their number begins with (`+`, `00` and spaces
 * ignored), or null. A number in local format (`024...`) matches none.
 * @example findPrefixLanguage([{ prefix: '225', language: 'fr' }], '+2250701020304') // 'fr'
 */
export function findPrefixLanguage(prefixes: ReadonlyArray<{ prefix: string; language: string }>, msisdn: string): string | null {
  const digits = msisdn.replace(/[\s-]/g, '').replace(/^\+/, '').replace(/^00/, '');
  if (!/^\d+$/.test(digits)) return null;
  let best: { prefix: string; language: string } | null = null;
  for (const p of prefixes) if (digits.startsWith(p.prefix) && (!best || p.prefix.length > best.prefix.length)) best = p;
  return best?.language ?? null;
}
