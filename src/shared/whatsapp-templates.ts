/**
 * WhatsApp message templates (docs/whatsapp-templates.md): the only messages a business may send first, outside
 * the 24-hour window after a customer last wrote. Pure code shared by the server (Meta's wire, sending) and the
 * console (the create form's checks and its live preview): a template's parts, the variables it needs, the rules
 * Meta sets on a new template, and rendering it with values.
 *
 * Components are kept as Meta's Business Management API returns them (`[{ type: 'HEADER', format: 'TEXT',
 * text }, { type: 'BODY', text, example }, { type: 'FOOTER', text }, { type: 'BUTTONS', buttons }]`), so a
 * template made on Meta's side with parts the console cannot make (an image header, a URL button) is kept whole.
 */
import { invalid } from './errors';
import type { WhatsAppMessage } from './whatsapp';

export const TEMPLATE_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** Meta's bounds on a new template (WhatsApp Business Management API, message templates). */
export const TEMPLATE_LIMITS = {
  name: 512,
  headerText: 60,
  body: 1024,
  footer: 60,
  buttons: 3,
  buttonText: 25,
  /** A value given to a variable when the template is sent. */
  value: 1024,
} as const;

/** One component as Meta's API holds it; fields we do not read are kept as they came. */
export interface TemplateComponent {
  type: string;
  format?: string;
  text?: string;
  example?: unknown;
  buttons?: Array<{ type: string; text?: string; [key: string]: unknown }>;
  [key: string]: unknown;
}

/** The parts of a template as a phone shows them. */
export interface TemplateParts {
  header?: string;
  body: string;
  footer?: string;
  /** Quick-reply buttons' titles (other buttons, a URL or a phone number, show their text too). */
  buttons: string[];
}

/** Where a variable sits: `{{1}}` or `{{first_name}}` in the header or the body. */
export type TemplatePlace = 'header' | 'body';

export interface TemplateVariable {
  place: TemplatePlace;
  /** `1`, `2`... (positional) or a named parameter's name. */
  name: string;
}

/** Values for a template's variables, by place then name: `{ body: { '1': 'Ama' } }`. */
export type TemplateValues = Partial<Record<TemplatePlace, Record<string, string>>>;

export const TEMPLATE_MESSAGES = {
  nameRule: 'A template name is lowercase letters, digits and underscores only, up to 512 characters',
  bodyRequired: 'A template needs a body',
  bodyTooLong: `The body is at most ${TEMPLATE_LIMITS.body} characters`,
  headerTooLong: `The header is at most ${TEMPLATE_LIMITS.headerText} characters`,
  footerTooLong: `The footer is at most ${TEMPLATE_LIMITS.footer} characters`,
  tooManyButtons: `A template has at most ${TEMPLATE_LIMITS.buttons} quick-reply buttons`,
  buttonTooLong: `A button's text is 1 to ${TEMPLATE_LIMITS.buttonText} characters`,
  notFound: 'Template not found',
  mixedVariables: 'Use either numbered variables ({{1}}, {{2}}) or named ones ({{first_name}}) in a template, not both',
  headerOneVariable: 'A header may hold one variable at most',
  footerNoVariables: 'A footer cannot hold variables',
} as const;

/** `{{1}}`, `{{ 2 }}`, `{{first_name}}`: what Meta reads as a variable. */
const VARIABLE = /\{\{\s*([a-z0-9_]+)\s*\}\}/g;
const NAME_RULE = /^[a-z0-9_]+$/;

export function isTemplateName(name: string): boolean {
  return name.length > 0 && name.length <= TEMPLATE_LIMITS.name && NAME_RULE.test(name);
}

/** The variables of one text, in order of first appearance, each once. */
export function readTextVariables(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(VARIABLE)) if (!names.includes(match[1]!)) names.push(match[1]!);
  return names;
}

const findComponent = (components: TemplateComponent[], type: string) => components.find((c) => c.type.toUpperCase() === type);

/** A template's parts as a phone shows them, before its variables are filled. */
export function readTemplateParts(components: TemplateComponent[]): TemplateParts {
  const header = findComponent(components, 'HEADER');
  const footer = findComponent(components, 'FOOTER');
  const buttons = findComponent(components, 'BUTTONS')?.buttons ?? [];
  return {
    ...(header ? { header: header.text ?? `[${(header.format ?? 'media').toLowerCase()}]` } : {}),
    body: findComponent(components, 'BODY')?.text ?? '',
    ...(footer?.text ? { footer: footer.text } : {}),
    buttons: buttons.map((b) => b.text ?? '').filter(Boolean),
  };
}

/** The variables a template needs, header first: what a send must give a value for. */
export function readTemplateVariables(components: TemplateComponent[]): TemplateVariable[] {
  const parts = readTemplateParts(components);
  const header = findComponent(components, 'HEADER');
  const headerText = header && (header.format ?? 'TEXT').toUpperCase() === 'TEXT' ? (parts.header ?? '') : '';
  return [
    ...readTextVariables(headerText).map((name) => ({ place: 'header' as const, name })),
    ...readTextVariables(parts.body).map((name) => ({ place: 'body' as const, name })),
  ];
}

const isPositional = (name: string) => /^\d+$/.test(name);
const describe = (v: TemplateVariable) => `{{${v.name}}} in the ${v.place}`;

/** A template ready to send: what the phone shows, and the `components` of Meta's send call. */
export interface RenderedTemplate extends TemplateParts {
  name: string;
  language: string;
  /** `template.components` of `POST /{phone-number-id}/messages`: one entry per place with variables. */
  parameters: Array<{ type: TemplatePlace; parameters: Array<{ type: 'text'; text: string; parameter_name?: string }> }>;
}

/**
 * Fills a template's variables. Refuses (AppError `invalid`, naming each) a variable with no value or an empty
 * one, and a value for a variable the template does not have: a send must never go out half filled.
 */
export function renderTemplate(
  template: { name: string; language: string; components: TemplateComponent[] },
  values: TemplateValues,
): RenderedTemplate {
  const variables = readTemplateVariables(template.components);
  const missing = variables.filter((v) => !values[v.place]?.[v.name]?.trim());
  const unknown = (['header', 'body'] as const).flatMap((place) =>
    Object.keys(values[place] ?? {})
      .filter((name) => !variables.some((v) => v.place === place && v.name === name))
      .map((name) => ({ place, name })),
  );
  const tooLong = variables.filter((v) => (values[v.place]?.[v.name]?.length ?? 0) > TEMPLATE_LIMITS.value);
  const problems = [
    ...(missing.length ? [`no value for ${missing.map(describe).join(', ')}`] : []),
    ...(unknown.length ? [`the template "${template.name}" has no ${unknown.map(describe).join(', ')}`] : []),
    ...(tooLong.length ? [`the value of ${tooLong.map(describe).join(', ')} is over ${TEMPLATE_LIMITS.value} characters`] : []),
  ];
  if (problems.length) throw invalid(`Cannot fill the template "${template.name}": ${problems.join('; ')}`);

  const filled = fillTemplateParts(readTemplateParts(template.components), values);
  const parameters: RenderedTemplate['parameters'] = (['header', 'body'] as const).flatMap((place) => {
    const own = variables.filter((v) => v.place === place);
    if (own.length === 0) return [];
    const ordered = own.every((v) => isPositional(v.name)) ? [...own].sort((a, b) => Number(a.name) - Number(b.name)) : own;
    return [
      {
        type: place,
        parameters: ordered.map((v) => ({
          type: 'text' as const,
          text: values[place]![v.name]!,
          ...(isPositional(v.name) ? {} : { parameter_name: v.name }),
        })),
      },
    ];
  });
  return {
    name: template.name,
    language: template.language,
    ...filled,
    parameters,
  };
}

/** A template's parts with the values given put in; a variable without a value stays as written (`{{1}}`). */
export function fillTemplateParts(parts: TemplateParts, values: TemplateValues): TemplateParts {
  const fill = (text: string, place: TemplatePlace) => text.replace(VARIABLE, (whole, name: string) => values[place]?.[name] || whole);
  return {
    ...(parts.header !== undefined ? { header: fill(parts.header, 'header') } : {}),
    body: fill(parts.body, 'body'),
    ...(parts.footer ? { footer: parts.footer } : {}),
    buttons: parts.buttons,
  };
}

/** A filled template as plain text, as the customer reads it: header, body, footer, then its buttons as `[Yes] [No]`. */
export function toTemplateText(parts: Pick<TemplateParts, 'header' | 'body' | 'footer' | 'buttons'>): string {
  return [parts.header, parts.body, parts.footer, parts.buttons.map((b) => `[${b}]`).join(' ')].filter(Boolean).join('\n\n');
}

/** A new template as the console writes it; examples are keyed by variable name (`'1'`, `'first_name'`). */
export interface TemplateDraft {
  name: string;
  language: string;
  category: TemplateCategory;
  header?: string;
  body: string;
  footer?: string;
  buttons: string[];
  examples: TemplateValues;
}

/**
 * What is wrong with a new template, in Meta's rules (empty when nothing is): the name, the bounds, variables
 * numbered from 1 without gaps or all named, one in a header at most, none in a footer, and an example for each.
 */
export function checkTemplateDraft(draft: TemplateDraft): string[] {
  const problems: string[] = [];
  if (!isTemplateName(draft.name)) problems.push(TEMPLATE_MESSAGES.nameRule);
  if (!draft.body.trim()) problems.push(TEMPLATE_MESSAGES.bodyRequired);
  if (draft.body.length > TEMPLATE_LIMITS.body) problems.push(TEMPLATE_MESSAGES.bodyTooLong);
  if ((draft.header?.length ?? 0) > TEMPLATE_LIMITS.headerText) problems.push(TEMPLATE_MESSAGES.headerTooLong);
  if ((draft.footer?.length ?? 0) > TEMPLATE_LIMITS.footer) problems.push(TEMPLATE_MESSAGES.footerTooLong);
  if (draft.buttons.length > TEMPLATE_LIMITS.buttons) problems.push(TEMPLATE_MESSAGES.tooManyButtons);
  if (draft.buttons.some((b) => !b.trim() || b.length > TEMPLATE_LIMITS.buttonText)) problems.push(TEMPLATE_MESSAGES.buttonTooLong);
  if (readTextVariables(draft.footer ?? '').length) problems.push(TEMPLATE_MESSAGES.footerNoVariables);
  const header = readTextVariables(draft.header ?? '');
  const body = readTextVariables(draft.body);
  if (header.length > 1) problems.push(TEMPLATE_MESSAGES.headerOneVariable);
  const all = [...header, ...body];
  const positional = all.filter(isPositional);
  if (positional.length && positional.length < all.length) problems.push(TEMPLATE_MESSAGES.mixedVariables);
  for (const [place, names] of [
    ['header', header],
    ['body', body],
  ] as const) {
    if (names.every(isPositional)) {
      const sorted = names.map(Number).sort((a, b) => a - b);
      if (sorted.some((n, i) => n !== i + 1)) {
        problems.push(`The ${place}'s variables are numbered from {{1}} without gaps (found ${names.map((n) => `{{${n}}}`).join(', ')})`);
      }
    }
    const noExample = names.filter((name) => !draft.examples[place]?.[name]?.trim());
    if (noExample.length) problems.push(`Give an example for ${noExample.map((name) => `{{${name}}}`).join(', ')} in the ${place}`);
  }
  return problems;
}

/** A checked draft as Meta's `POST /{waba-id}/message_templates` body takes it. */
export function toMetaTemplate(draft: TemplateDraft): {
  name: string;
  language: string;
  category: TemplateCategory;
  parameter_format?: 'NAMED';
  components: TemplateComponent[];
} {
  const header = readTextVariables(draft.header ?? '');
  const body = readTextVariables(draft.body);
  const named = [...header, ...body].some((n) => !isPositional(n));
  const example = (place: TemplatePlace, names: string[]) => {
    const given = (name: string) => draft.examples[place]?.[name] ?? '';
    if (named) return { [`${place}_text_named_params`]: names.map((name) => ({ param_name: name, example: given(name) })) };
    const ordered = [...names].sort((a, b) => Number(a) - Number(b)).map(given);
    return { [`${place}_text`]: place === 'body' ? [ordered] : ordered };
  };
  const components: TemplateComponent[] = [];
  if (draft.header) {
    components.push({
      type: 'HEADER',
      format: 'TEXT',
      text: draft.header,
      ...(header.length ? { example: example('header', header) } : {}),
    });
  }
  components.push({ type: 'BODY', text: draft.body, ...(body.length ? { example: example('body', body) } : {}) });
  if (draft.footer) components.push({ type: 'FOOTER', text: draft.footer });
  if (draft.buttons.length) components.push({ type: 'BUTTONS', buttons: draft.buttons.map((text) => ({ type: 'QUICK_REPLY', text })) });
  return {
    name: draft.name,
    language: draft.language,
    category: draft.category,
    ...(named ? { parameter_format: 'NAMED' as const } : {}),
    components,
  };
}

/**
 * A filled template as one chat message, the way WhatsApp shows it: the header in bold, the body, the footer in
 * italics, and its quick replies as reply buttons (`interactive`) or numbered lines (a linked device's text).
 */
export function toTemplateMessage(
  template: Pick<RenderedTemplate, 'header' | 'body' | 'footer' | 'buttons'>,
  interactive: boolean,
): WhatsAppMessage {
  const text = [template.header ? `*${template.header}*` : '', template.body, template.footer ? `_${template.footer}_` : '']
    .filter(Boolean)
    .join('\n\n');
  const buttons = template.buttons.map((title, i) => ({ id: String(i + 1), title }));
  if (interactive && buttons.length) return { type: 'buttons', body: text, buttons };
  return { type: 'text', text: [text, ...buttons.map((b) => `${b.id}. ${b.title}`)].join('\n') };
}

/** A template's key in a choice of templates: its name and language. */
export const templateKey = (template: { name: string; language: string }) => `${template.name}:${template.language}`;

/** A variable's key among a template's typed values: its place and name. */
export const variableKey = (v: TemplateVariable) => `${v.place}:${v.name}`;

/** The values typed for a template's variables (keyed by {@link variableKey}), by place then name, as the calls take them. */
export function toTemplateValues(variables: TemplateVariable[], typed: Record<string, string>): TemplateValues {
  const values: TemplateValues = {};
  for (const v of variables) values[v.place] = { ...values[v.place], [v.name]: typed[variableKey(v)] ?? '' };
  return values;
}
