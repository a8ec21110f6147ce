import { describe, expect, it } from 'vitest';
import {
  checkTemplateDraft,
  isTemplateName,
  readTemplateVariables,
  renderTemplate,
  toMetaTemplate,
  toTemplateMessage,
  type TemplateComponent,
  type TemplateDraft,
} from './whatsapp-templates';

const order: TemplateComponent[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
  { type: 'BODY', text: 'Hi {{1}}, your order of {{2}} is on its way. Thanks {{1}}!' },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Track' },
      { type: 'QUICK_REPLY', text: 'Help' },
    ],
  },
];
const template = { name: 'order_shipped', language: 'en_US', components: order };

describe('template variables', () => {
  it('reads each variable once, header first, in order of appearance', () => {
    expect(readTemplateVariables(order)).toEqual([
      { place: 'header', name: '1' },
      { place: 'body', name: '1' },
      { place: 'body', name: '2' },
    ]);
  });

  it('reads named variables and none from a media header', () => {
    const named: TemplateComponent[] = [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['x'] } },
      { type: 'BODY', text: 'Hello {{first_name}}, code {{ code }}' },
    ];
    expect(readTemplateVariables(named)).toEqual([
      { place: 'body', name: 'first_name' },
      { place: 'body', name: 'code' },
    ]);
  });
});

describe('renderTemplate', () => {
  it('fills every place and builds the parameters of the send in number order', () => {
    const rendered = renderTemplate(template, { header: { '1': '#42' }, body: { '2': '3 shirts', '1': 'Ama' } });
    expect(rendered).toEqual({
      name: 'order_shipped',
      language: 'en_US',
      header: 'Order #42',
      body: 'Hi Ama, your order of 3 shirts is on its way. Thanks Ama!',
      footer: 'Reply STOP to opt out',
      buttons: ['Track', 'Help'],
      parameters: [
        { type: 'header', parameters: [{ type: 'text', text: '#42' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ama' },
            { type: 'text', text: '3 shirts' },
          ],
        },
      ],
    });
  });

  it('names named parameters', () => {
    const named = { name: 'hello', language: 'en', components: [{ type: 'BODY', text: 'Hello {{first_name}}' }] };
    expect(renderTemplate(named, { body: { first_name: 'Kofi' } }).parameters).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Kofi', parameter_name: 'first_name' }] },
    ]);
  });

  it('refuses missing, empty and unknown variables, naming each', () => {
    expect(() => renderTemplate(template, { body: { '1': 'Ama', '2': ' ' } })).toThrow(
      'Cannot fill the template "order_shipped": no value for {{1}} in the header, {{2}} in the body',
    );
    expect(() => renderTemplate(template, { header: { '1': 'x' }, body: { '1': 'a', '2': 'b', '3': 'c' } })).toThrow(
      'the template "order_shipped" has no {{3}} in the body',
    );
  });
});

describe('a new template', () => {
  const draft: TemplateDraft = {
    name: 'order_shipped',
    language: 'en_US',
    category: 'UTILITY',
    header: 'Order {{1}}',
    body: 'Hi {{1}}, your order of {{2}} is on its way.',
    footer: 'Thanks',
    buttons: ['Track'],
    examples: { header: { '1': '#42' }, body: { '1': 'Ama', '2': '3 shirts' } },
  };

  it('follows the name rules', () => {
    expect(isTemplateName('order_shipped_2')).toBe(true);
    expect(isTemplateName('Order')).toBe(false);
    expect(isTemplateName('order-shipped')).toBe(false);
    expect(isTemplateName('order shipped')).toBe(false);
    expect(isTemplateName('a'.repeat(512))).toBe(true);
    expect(isTemplateName('a'.repeat(513))).toBe(false);
    expect(isTemplateName('')).toBe(false);
  });

  it('passes a good draft and says what is wrong with a bad one', () => {
    expect(checkTemplateDraft(draft)).toEqual([]);
    expect(
      checkTemplateDraft({
        ...draft,
        name: 'Order Shipped',
        body: `Hi {{1}} {{3}} ${'x'.repeat(1024)}`,
        footer: 'Bye {{1}}',
        buttons: ['a', 'b', 'c', 'd'],
        examples: { body: { '1': 'Ama' } },
      }),
    ).toEqual([
      'A template name is lowercase letters, digits and underscores only, up to 512 characters',
      'The body is at most 1024 characters',
      'A template has at most 3 quick-reply buttons',
      'A footer cannot hold variables',
      'Give an example for {{1}} in the header',
      "The body's variables are numbered from {{1}} without gaps (found {{1}}, {{3}})",
      'Give an example for {{3}} in the body',
    ]);
    expect(
      checkTemplateDraft({ ...draft, body: 'Hi {{1}} and {{name}}', examples: { header: { '1': 'x' }, body: { '1': 'a', name: 'b' } } }),
    ).toEqual(['Use either numbered variables ({{1}}, {{2}}) or named ones ({{first_name}}) in a template, not both']);
  });

  it("is written as Meta's create body, with examples", () => {
    expect(toMetaTemplate(draft)).toEqual({
      name: 'order_shipped',
      language: 'en_US',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#42'] } },
        { type: 'BODY', text: 'Hi {{1}}, your order of {{2}} is on its way.', example: { body_text: [['Ama', '3 shirts']] } },
        { type: 'FOOTER', text: 'Thanks' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Track' }] },
      ],
    });
    const named = toMetaTemplate({ ...draft, header: undefined, body: 'Hello {{first_name}}', examples: { body: { first_name: 'Ama' } } });
    expect(named.parameter_format).toBe('NAMED');
    expect(named.components[0]).toEqual({
      type: 'BODY',
      text: 'Hello {{first_name}}',
      example: { body_text_named_params: [{ param_name: 'first_name', example: 'Ama' }] },
    });
  });
});

describe('a template as a chat message', () => {
  it('is numbered text for a linked device, which cannot show buttons', () => {
    const rendered = renderTemplate(template, { header: { '1': '#42' }, body: { '1': 'Ama', '2': '3 shirts' } });
    expect(toTemplateMessage(rendered, false)).toEqual({
      type: 'text',
      text: '*Order #42*\n\nHi Ama, your order of 3 shirts is on its way. Thanks Ama!\n\n_Reply STOP to opt out_\n1. Track\n2. Help',
    });
  });
});
