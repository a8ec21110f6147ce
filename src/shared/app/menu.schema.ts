import { z } from 'zod';
import { CONTACT_FIELD_PATTERN } from '../contact-fields';
import { actionSchema } from './actions.schema';
import { inputValidationSchema } from './input-validation.schema';
import { languageRecord } from './languages';
import { menuMediaFields } from './menu-media.schema';
import { switchOperationSchema } from './switch-operation.schema';

/**
 * A contact field a menu's input can be saved to (docs/contacts.md): `name`, or an attribute key the builder
 * chooses. `language` is the contact's too, but set by the console and the API, not typed by a caller.
 */
export { CONTACT_FIELD_PATTERN };
export const CONTACT_FIELD_MESSAGE =
  'A contact field is name or an attribute key: a letter or _, then letters, digits or _ (at most 40), not language';
export const contactFieldSchema = z
  .string()
  .regex(CONTACT_FIELD_PATTERN, { message: CONTACT_FIELD_MESSAGE })
  .refine((key) => key !== 'language', { message: CONTACT_FIELD_MESSAGE });

/** Short text in the menu list: displayText cut at 95 characters plus an ellipsis. */
export const SHORT_TEXT_LENGTH = 95;

/** The flow map's layout directions: top to bottom, left to right. */
export const MAP_DIRECTIONS = ['TB', 'LR'] as const;
export type MapDirection = (typeof MAP_DIRECTIONS)[number];

/** Where the builder placed a menu's box on the flow map, in the layout direction it was placed in. */
export const mapPositionSchema = z.object({
  x: z.number().finite().min(-1_000_000).max(1_000_000),
  y: z.number().finite().min(-1_000_000).max(1_000_000),
  direction: z.enum(MAP_DIRECTIONS),
});
export type MapPosition = z.infer<typeof mapPositionSchema>;

/**
 * A menu's texts in one other language (docs/languages.md). Every field is optional: an empty or missing one falls
 * back to the default language's text. `errorMessages` follow `inputValidations` and `closingTexts` follow
 * `switchOperations` by index (a closing text is a Terminate rule's `actionParam`).
 */
const translatedText = (what: string, max: number) =>
  z.string().max(max, { message: `A translated ${what} is at most ${max} characters, as in the default language.` });
export const menuTranslationSchema = z.object({
  displayText: translatedText('menu text', 4000).optional(),
  headerText: translatedText('header', 1000).optional(),
  footerText: translatedText('footer', 1000).optional(),
  inputHolder: translatedText('input holder', 200).optional(),
  errorMessages: z.array(translatedText('error message', 500)).max(50).optional(),
  closingTexts: z.array(translatedText('closing text', 2000)).max(100).optional(),
});
export type MenuTranslation = z.infer<typeof menuTranslationSchema>;

/** The translated fields, as lint and the designer name them. */
export const TRANSLATED_FIELDS = ['headerText', 'displayText', 'footerText', 'inputHolder'] as const;
export type TranslatedField = (typeof TRANSLATED_FIELDS)[number];

/**
 * A menu as stored and as the engine runs it. Field names are the API contract (docs/product.md). The schema
 * checks shape and size only; `validateMenu` applies the rules and gives their messages, so a form and
 * the API report the same words.
 */
export const menuSchema = z.object({
  uniqueId: z.string().min(1).max(64),
  appId: z.string().max(64),
  isFirst: z.boolean().default(false),
  displayText: z.string().max(4000).default(''),
  headerText: z.string().max(1000).default(''),
  footerText: z.string().max(1000).default(''),
  /** The menu identifier: `session.inputs.<userDefinedName>` holds the input given on this menu. */
  userDefinedName: z.string().max(200).default(''),
  inputHolder: z.string().max(200).default(''),
  /** Where the input given on this menu is also kept: the caller's contact's name or an attribute (docs/contacts.md). */
  saveToContact: contactFieldSchema.optional(),
  allowGoBack: z.boolean().default(false),
  goBackInputIndicator: z.string().max(20).default(''),
  terminate: z.boolean().default(false),
  parentMenuId: z.string().max(64).nullable().default(null),
  switchOperations: z.array(switchOperationSchema).max(100).default([]),
  actions: z.array(actionSchema).max(50).default([]),
  inputValidations: z.array(inputValidationSchema).max(50).default([]),
  /** Set by POST /api/saveMenuPositions only (createMenu and updateMenu leave it); the engine ignores it. */
  mapPosition: mapPositionSchema.nullish(),
  /** Texts per other language of the app, keyed by language code; left out when the menu has none. */
  translations: languageRecord(menuTranslationSchema).optional(),
  /** A bot's media (docs/bots.md, "Media"): what the menu asks for and sends besides text; absent on a text menu. */
  ...menuMediaFields,
});
export type Menu = z.infer<typeof menuSchema>;
export type MenuInput = z.input<typeof menuSchema>;

/** POST /api/createMenu and /api/updateMenu: the menu, with uniqueId only when editing. */
export const menuBodySchema = menuSchema.extend({ uniqueId: z.string().min(1).max(64).optional() });
export type MenuBody = z.infer<typeof menuBodySchema>;

/** The lite menu list. */
export const menuLiteSchema = menuSchema.pick({ uniqueId: true, displayText: true, userDefinedName: true });
export type MenuLite = z.infer<typeof menuLiteSchema>;

/** The fields of a menu's screen. */
export type MenuScreen = Pick<
  Menu,
  'displayText' | 'headerText' | 'footerText' | 'inputHolder' | 'allowGoBack' | 'goBackInputIndicator' | 'terminate'
>;

/**
 * A menu's screen fields as the server saves them and the form loads them. A terminating menu ends the session
 * on its screen: it takes no input, so it has no Back (nor a Back link on the map), whatever was sent or stored.
 */
export function toMenuScreen(menu: MenuScreen): MenuScreen {
  return {
    displayText: menu.displayText,
    headerText: menu.headerText,
    footerText: menu.footerText,
    inputHolder: menu.inputHolder,
    allowGoBack: menu.allowGoBack && !menu.terminate,
    goBackInputIndicator: menu.goBackInputIndicator,
    terminate: menu.terminate,
  };
}

/** A new menu in the form: Back Menu on with indicator '0', empty lists. */
export function createMenuDraft(appId: string): Omit<Menu, 'uniqueId'> {
  return {
    appId,
    isFirst: false,
    displayText: '',
    headerText: '',
    footerText: '',
    userDefinedName: '',
    inputHolder: '',
    allowGoBack: true,
    goBackInputIndicator: '0',
    terminate: false,
    parentMenuId: null,
    switchOperations: [],
    actions: [],
    inputValidations: [],
  };
}

export function getShortText(displayText: string): string {
  return displayText.length > SHORT_TEXT_LENGTH ? `${displayText.slice(0, SHORT_TEXT_LENGTH)}...` : displayText;
}
