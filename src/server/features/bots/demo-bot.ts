import type { TemplateDefinition } from '../templates/featured-templates';

/**
 * The demo bot account's sample bot (seed.ts): a shop on WhatsApp whose first screen shows as reply buttons
 * and whose order menu shows as a list, so a newcomer sees both in the chat simulator.
 */
export const DEMO_BOT: TemplateDefinition = {
  appName: 'Mensah Shop Bot',
  description: 'Order groceries on WhatsApp: browse, pick a quantity, and get a confirmation.',
  country: '',
  flagIcon: '',
  shortCode: '',
  useTemplateTag: false,
  menus: [
    {
      key: 'welcome',
      userDefinedName: 'welcome',
      displayText: 'Akwaaba to Mensah Shop! How can we help?\n1. Order\n2. Opening hours\n3. Talk to us',
      routes: [
        ['eq', '1', { goto: 'order' }],
        ['eq', '2', { goto: 'hours' }],
        ['eq', '3', { terminate: 'Call us on 0241234567, Monday to Saturday. Thank you!' }],
      ],
    },
    {
      key: 'order',
      userDefinedName: 'item',
      displayText: 'What would you like?\n1. Rice 5kg\n2. Cooking oil 1L\n3. Sugar 1kg\n4. Milk powder 400g\n0. Back',
      allowGoBack: true,
      goBackInputIndicator: '0',
      routes: [['valueIn', '1,2,3,4', { goto: 'quantity' }]],
    },
    {
      key: 'quantity',
      userDefinedName: 'quantity',
      displayText: 'How many {{ session.inputs.itemLabel }}?',
      validations: [{ validationMethod: 'isNumeric', compareValue: '', errorMessage: 'Please type a number, e.g. 2' }],
      routes: [['always', '', { goto: 'done' }]],
    },
    {
      key: 'done',
      userDefinedName: 'done',
      displayText: 'Thank you! {{ session.inputs.quantity }} x {{ session.inputs.itemLabel }} will be ready for pickup today.',
      terminate: true,
    },
    {
      key: 'hours',
      userDefinedName: 'hours',
      displayText: 'We are open Monday to Saturday, 8am to 8pm.',
      terminate: true,
    },
  ],
};
