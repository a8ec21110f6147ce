/**
 * The benchmarked app and its traffic: the three-menu shop of runtime.int.test.ts, and one Africa's
 * Talking session (start -> choose -> amount, cumulative `text`) with the screen each hop must answer.
 * Session `n` picks Airtime or Data and an amount from n, so both labels and many amounts are rendered.
 */
export const SHOP = {
  app: {
    appName: 'Bench shop',
    description: 'npm run bench',
    country: 'ghana',
    connectionMode: 'existing-shortcode',
    customShortCode: '*920*55#',
    useTemplateTag: false,
  },
  product: {
    userDefinedName: 'product',
    displayText: 'Welcome to the shop\n1. Airtime\n2. Data',
    isFirst: true,
    switchOperations: [{ operator: 'valueIn', compareVal: '1,2', action: 'goto', actionParam: '' }],
  },
  amount: {
    userDefinedName: 'amount',
    displayText: 'Enter amount',
    inputValidations: [{ validationMethod: 'isNumeric', compareValue: '', errorMessage: 'Enter a number' }],
    switchOperations: [{ operator: 'always', compareVal: '', action: 'goto', actionParam: '' }],
  },
  done: {
    userDefinedName: 'done',
    displayText: 'You chose {{ session.inputs.productLabel }} for GHS {{ session.inputs.amount }}',
    terminate: true,
  },
};

export const HOPS_PER_SESSION = 3;

const choiceOf = (n: number) => (n % 2 === 0 ? '1' : '2');
const amountOf = (n: number) => String(10 + (n % 990));

/** The cumulative `text` Africa's Talking sends on hop `step` (0, 1, 2) of session n. */
export function atText(step: number, n: number): string {
  if (step === 0) return '';
  if (step === 1) return choiceOf(n);
  return `${choiceOf(n)}*${amountOf(n)}`;
}

/**
 * The form Africa's Talking posts on hop `step` of session n, dialled on `serviceCode` (the shop's own code by
 * default). Each session is another subscriber's, as on a live shortcode: the runtime holds one number to a few
 * new sessions a minute (docs/runtime.md, "Limits on new sessions").
 */
export function atForm(sessionId: string, step: number, n: number, serviceCode = '*920*55#'): string {
  const phoneNumber = `%2B23324${String(n % 10_000_000).padStart(7, '0')}`;
  return `sessionId=${encodeURIComponent(sessionId)}&serviceCode=${encodeURIComponent(serviceCode)}&phoneNumber=${phoneNumber}&networkCode=62001&text=${encodeURIComponent(atText(step, n))}`;
}

/**
 * The provider target: this many purchased extensions `*920*1000#` .. `*920*1999#` of the provider `benchgh`, all
 * connected to the shop's deployed version; session n dials the extension n mod the count, so every hop's lookup
 * runs against the full table.
 */
export const SHORTCODE_COUNT = 1000;
export const SHORTCODE_PROVIDER = 'benchgh';
export const shortcodeDialOf = (n: number) => `*920*${1000 + (n % SHORTCODE_COUNT)}#`;

export function expectedReply(step: number, n: number): string {
  if (step === 0) return 'CON Welcome to the shop\n1. Airtime\n2. Data';
  if (step === 1) return 'CON Enter amount';
  return `END You chose ${choiceOf(n) === '1' ? 'Airtime' : 'Data'} for GHS ${amountOf(n)}`;
}

/** The bare server answers the same three requests with a constant. */
export const BARE_REPLY = 'CON hello';
