import type { Action, InputValidation } from '../../../shared/app';

/**
 * The featured templates: real apps that run in the emulator and can be cloned. Menus refer to each other
 * by a local `key`; the seed turns keys into uniqueIds. `{{ ... }}` is LiquidJS over the session scope.
 */
export interface TemplateMenu {
  key: string;
  userDefinedName: string;
  displayText: string;
  headerText?: string;
  footerText?: string;
  terminate?: boolean;
  allowGoBack?: boolean;
  goBackInputIndicator?: string;
  /** [operator, compareVal, goto key | Terminate text]; operator 'always' for Always goto. */
  routes?: Array<[string, string, { goto: string } | { terminate: string }]>;
  validations?: Array<Partial<InputValidation> & Pick<InputValidation, 'validationMethod' | 'errorMessage'>>;
  actions?: Action[];
}

export interface TemplateDefinition {
  appName: string;
  description: string;
  country: string;
  flagIcon: string;
  shortCode: string;
  useTemplateTag: boolean;
  menus: TemplateMenu[];
}

/** Where the balance-enquiry template finds its demo REST API (our own sandbox bank). */
export function getFeaturedTemplates(sandboxOrigin: string): TemplateDefinition[] {
  return [
    {
      appName: 'Airtime Top-Up',
      description: 'Sell airtime for any network: pick a number and an amount, confirm, and pay with mobile money.',
      country: 'ghana',
      flagIcon: 'gh',
      shortCode: '*920*11#',
      useTemplateTag: false,
      menus: [
        {
          key: 'who',
          userDefinedName: 'recipient',
          displayText: 'Airtime Top-Up\n1. My number\n2. Another number',
          routes: [
            ['eq', '1', { goto: 'amount' }],
            ['eq', '2', { goto: 'number' }],
          ],
        },
        {
          key: 'number',
          userDefinedName: 'otherNumber',
          displayText: 'Enter the phone number to top up',
          allowGoBack: true,
          goBackInputIndicator: '0',
          validations: [
            { validationMethod: 'regexp', compareValue: '^0[2-5][0-9]{8}$', errorMessage: 'Enter a 10-digit number like 0241234567' },
          ],
          routes: [['always', '', { goto: 'amount' }]],
        },
        {
          key: 'amount',
          userDefinedName: 'amount',
          displayText: 'Enter amount (GHS 1 - 500)',
          validations: [
            { validationMethod: 'isNumeric', errorMessage: 'Enter the amount in numbers' },
            { validationMethod: 'between', compareValue: '1,500', errorMessage: 'The amount must be from GHS 1 to 500' },
          ],
          routes: [['always', '', { goto: 'confirm' }]],
        },
        {
          key: 'confirm',
          userDefinedName: 'confirm',
          displayText:
            'Top up {% if session.inputs.otherNumber %}{{ session.inputs.otherNumber }}{% else %}{{ session.mobile }}{% endif %} with GHS {{ session.inputs.amount }}?\n1. Confirm\n2. Cancel',
          routes: [
            ['eq', '1', { goto: 'pay' }],
            ['eq', '2', { terminate: 'Top-up cancelled. Dial again any time.' }],
          ],
        },
        {
          key: 'pay',
          userDefinedName: 'paid',
          displayText:
            '{% if actions.payment.reference %}Approve the GHS {{ session.inputs.amount }} prompt on your phone. Ref {{ actions.payment.reference }}{% else %}Payment could not start. Please try again later.{% endif %}',
          terminate: true,
          actions: [
            {
              actionName: 'payment',
              actionType: 'pre',
              inheritsPlugin: 'paymentprompt',
              code: { mobile: '{{ session.mobile }}', amount: '{{ session.inputs.amount }}', network: '{{ session.network }}' },
            },
          ],
        },
      ],
    },
    {
      appName: 'Pay a Merchant',
      description: 'Collect mobile-money payments: customers dial *920*12*{merchant}*{amount}# and approve the prompt.',
      country: 'ghana',
      flagIcon: 'gh',
      shortCode: '*920*12*{merchantCode}*{amount}#',
      useTemplateTag: true,
      menus: [
        {
          key: 'confirm',
          userDefinedName: 'confirmPayment',
          displayText: 'Pay GHS {{ session.vars.amount }} to merchant {{ session.vars.merchantCode }}?\n1. Pay now\n2. Cancel',
          routes: [
            ['eq', '1', { goto: 'charge' }],
            ['eq', '2', { terminate: 'Payment cancelled.' }],
          ],
        },
        {
          key: 'charge',
          userDefinedName: 'charged',
          displayText:
            '{% if actions.charge.reference %}Approve GHS {{ session.vars.amount }} on your phone to pay merchant {{ session.vars.merchantCode }}. Ref {{ actions.charge.reference }}{% else %}We could not start the payment. Try again later.{% endif %}',
          terminate: true,
          actions: [
            {
              actionName: 'charge',
              actionType: 'pre',
              inheritsPlugin: 'paymentprompt',
              code: { mobile: '{{ session.mobile }}', amount: '{{ session.vars.amount }}', network: '{{ session.network }}' },
            },
          ],
        },
      ],
    },
    {
      appName: 'Community Poll',
      description: 'Ask one question and count the answers: a quick poll for radio shows, churches and communities.',
      country: 'nigeria',
      flagIcon: 'ng',
      shortCode: '*920*13#',
      useTemplateTag: false,
      menus: [
        {
          key: 'question',
          userDefinedName: 'vote',
          displayText: 'Which project should the community fund first?\n1. Borehole\n2. School library\n3. Street lights',
          routes: [['valueIn', '1,2,3', { goto: 'thanks' }]],
        },
        {
          key: 'thanks',
          userDefinedName: 'thanks',
          displayText: 'Thank you! Your vote for {{ session.inputs.voteLabel }} has been counted.',
          terminate: true,
        },
      ],
    },
    {
      appName: 'Customer Survey',
      description: 'A three-question satisfaction survey with ratings, a yes/no and a comment.',
      country: 'kenya',
      flagIcon: 'ke',
      shortCode: '*920*14#',
      useTemplateTag: false,
      menus: [
        {
          key: 'rating',
          userDefinedName: 'rating',
          displayText: 'How happy are you with our service? Reply 1 (poor) to 5 (excellent)',
          validations: [{ validationMethod: 'between', compareValue: '1,5', errorMessage: 'Reply with a number from 1 to 5' }],
          routes: [['always', '', { goto: 'recommend' }]],
        },
        {
          key: 'recommend',
          userDefinedName: 'recommend',
          displayText: 'Would you recommend us to a friend?\n1. Yes\n2. No',
          allowGoBack: true,
          goBackInputIndicator: '0',
          routes: [['valueIn', '1,2', { goto: 'comment' }]],
        },
        {
          key: 'comment',
          userDefinedName: 'comment',
          displayText: 'Any comment? Type it, or 0 to skip',
          routes: [['always', '', { goto: 'done' }]],
        },
        {
          key: 'done',
          userDefinedName: 'done',
          displayText:
            'Thank you! You rated us {{ session.inputs.rating }}/5{% if session.inputs.recommend == "1" %} and would recommend us{% endif %}.',
          terminate: true,
        },
      ],
    },
    {
      appName: 'Balance Enquiry',
      description: 'Check an account balance from a bank or SACCO system through its REST API.',
      country: 'kenya',
      flagIcon: 'ke',
      shortCode: '*920*15#',
      useTemplateTag: false,
      menus: [
        {
          key: 'account',
          userDefinedName: 'account',
          displayText: 'Enter your 6-digit account number',
          validations: [{ validationMethod: 'regexp', compareValue: '^[0-9]{6}$', errorMessage: 'Account numbers have 6 digits' }],
          routes: [['always', '', { goto: 'balance' }]],
        },
        {
          key: 'balance',
          userDefinedName: 'balance',
          displayText:
            '{% if actions.lookup.ok %}{{ actions.lookup.body.name }}, your balance is {{ actions.lookup.body.currency }} {{ actions.lookup.body.balance }}{% else %}We could not reach the bank. Please try again later.{% endif %}',
          terminate: true,
          actions: [
            {
              actionName: 'lookup',
              actionType: 'pre',
              inheritsPlugin: 'restapi',
              code: {
                method: 'GET',
                url: `${sandboxOrigin}/api/sandbox/accounts/{{ session.inputs.account }}`,
                contentType: 'application/json',
                payload: '',
                headers: [],
                basicAuth: null,
              },
            },
          ],
        },
      ],
    },
    {
      appName: 'Event Registration',
      description: 'Register attendees for an event by phone and confirm their seat by SMS.',
      country: 'ghana',
      flagIcon: 'gh',
      shortCode: '*920*16#',
      useTemplateTag: false,
      menus: [
        {
          key: 'name',
          userDefinedName: 'fullName',
          displayText: 'Tech Summit Accra\nEnter your first name',
          validations: [
            { validationMethod: 'regexp', compareValue: "^[A-Za-z][A-Za-z '-]{1,39}$", errorMessage: 'Enter your name in letters' },
          ],
          routes: [['always', '', { goto: 'session' }]],
        },
        {
          key: 'session',
          userDefinedName: 'session',
          displayText: 'Hello {{ session.inputs.fullName }}, pick a day\n1. Friday workshops\n2. Saturday talks\n3. Both days',
          allowGoBack: true,
          goBackInputIndicator: '0',
          routes: [['valueIn', '1,2,3', { goto: 'done' }]],
        },
        {
          key: 'done',
          userDefinedName: 'registered',
          displayText:
            "You're registered for {{ session.inputs.sessionLabel }}, {{ session.inputs.fullName }}. We'll text your confirmation.",
          terminate: true,
          actions: [
            {
              actionName: 'confirmation',
              actionType: 'pre',
              inheritsPlugin: 'sendsms',
              code: {
                smsSender: 'TechSummit',
                mobile: '{{ session.mobile }}',
                smsMessage:
                  'Hi {{ session.inputs.fullName }}, you are registered for {{ session.inputs.sessionLabel }} at Tech Summit Accra.',
              },
            },
          ],
        },
      ],
    },
  ];
}
