/**
 * Actions: server-side steps a menu runs before it is shown (`pre`) or after its input is accepted
 * (`post`). One kind, one name in every layer: `restapiCodeSchema` here, `actions/restapi.ts` in the
 * runners, the `restapi` form in the designer.
 */
import { z } from 'zod';

export const ACTION_KINDS = ['javascript', 'restapi', 'dbaccess', 'sendsms', 'paymentprompt', 'customAction'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export const ACTION_TYPES = ['pre', 'post'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** The designer's type dropdown labels (docs/product.md, Menu edit form). */
export const ACTION_KIND_LABELS: Record<ActionKind, string> = {
  restapi: 'Rest Api',
  dbaccess: 'Database Query',
  javascript: 'Javascript',
  sendsms: 'Send Sms',
  paymentprompt: 'Payment Prompt',
  customAction: 'My Custom Functions',
};

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH'] as const;
export const CONTENT_TYPES = [
  'application/json',
  'application/javascript',
  'application/x-www-form-urlencoded',
  'application/xml',
  'text/xml',
  'text/html',
] as const;
export const DB_DIALECTS = ['postgres', 'mysql', 'mssql'] as const;

const text = (max: number) => z.string().max(max).default('');

/**
 * javascript: the code runs in the sandbox and its returned value is `actions.<name>`. A returned
 * `{ goto: "menuIdentifier" }` or `{ end: "text" }` steers the session; `{ vars: {...} }` sets variables.
 * @example `return { balance: 20, goto: "showBalance" };`
 */
export const javascriptCodeSchema = z.string().max(100_000);

/**
 * restapi: one HTTP call; url, headers and payload are templates.
 * @example `{ method: "POST", url: "https://api.example.com/pay", contentType: "application/json",
 *   payload: "{\"amount\": {{ session.inputs.amount }}}", headers: [], basicAuth: null }`
 */
export const restapiCodeSchema = z.object({
  method: z.enum([...HTTP_METHODS, '']).default('POST'),
  url: text(2000),
  contentType: z.enum(CONTENT_TYPES).default('application/json'),
  payload: text(20_000),
  headers: z
    .array(z.object({ key: z.string().max(200), value: z.string().max(2000) }))
    .max(50)
    .default([]),
  basicAuth: z
    .object({ username: z.string().max(200), password: z.string().max(200) })
    .nullable()
    .default(null),
});

/**
 * dbaccess: one query on the builder's database; template expressions become bind parameters.
 * @example `{ dburl: "db.example.com:5432", dialect: "postgres", query: "select name from users where
 *   msisdn = {{ session.mobile }}", ... }`
 */
export const dbaccessCodeSchema = z.object({
  dburl: text(500),
  dialect: z.enum(DB_DIALECTS).default('postgres'),
  secureConnection: z.boolean().default(false),
  dbuser: text(200),
  dbpass: text(500),
  dbName: text(200),
  query: text(20_000),
  dataSourceType: text(50).default('remote'),
});

/**
 * sendsms: queues an SMS; every field is a template.
 * @example `{ smsSender: "Dialflow", mobile: "{{ session.mobile }}", smsMessage: "Paid {{ session.inputs.amount }}" }`
 */
export const sendsmsCodeSchema = z.object({
  smsSender: text(20),
  mobile: text(200),
  smsMessage: text(2000),
});

/**
 * paymentprompt: starts a mobile-money charge; every field is a template.
 * @example `{ mobile: "{{ session.mobile }}", amount: "{{ session.inputs.amount }}", network: "{{ session.network }}" }`
 */
export const paymentpromptCodeSchema = z.object({
  mobile: text(200),
  amount: text(200),
  network: text(200),
});

/**
 * customAction: runs a saved custom function (javascript) by uuid; steers like javascript.
 * @example `{ uuid: "6f1c...", actionName: "lookupMerchant", description: "Finds a merchant by code" }`
 */
export const customActionCodeSchema = z.object({
  uuid: text(100),
  actionName: text(200),
  description: text(2000),
});

export const actionCodeSchemas = {
  javascript: javascriptCodeSchema,
  restapi: restapiCodeSchema,
  dbaccess: dbaccessCodeSchema,
  sendsms: sendsmsCodeSchema,
  paymentprompt: paymentpromptCodeSchema,
  customAction: customActionCodeSchema,
} satisfies Record<ActionKind, z.ZodType>;

const actionBase = {
  /** Client-side id ("two random digits then the milliseconds"); kept for list keys, not referenced. */
  id: z.string().max(64).optional(),
  actionName: z.string().max(200),
  actionType: z.enum(ACTION_TYPES).default('post'),
};

export const actionSchema = z.discriminatedUnion('inheritsPlugin', [
  z.object({ ...actionBase, inheritsPlugin: z.literal('javascript'), code: javascriptCodeSchema.default('') }),
  z.object({ ...actionBase, inheritsPlugin: z.literal('restapi'), code: restapiCodeSchema }),
  z.object({ ...actionBase, inheritsPlugin: z.literal('dbaccess'), code: dbaccessCodeSchema }),
  z.object({ ...actionBase, inheritsPlugin: z.literal('sendsms'), code: sendsmsCodeSchema }),
  z.object({ ...actionBase, inheritsPlugin: z.literal('paymentprompt'), code: paymentpromptCodeSchema }),
  z.object({ ...actionBase, inheritsPlugin: z.literal('customAction'), code: customActionCodeSchema }),
]);
export type Action = z.infer<typeof actionSchema>;
export type ActionOf<K extends ActionKind> = Extract<Action, { inheritsPlugin: K }>;
export type RestapiCode = z.infer<typeof restapiCodeSchema>;
export type DbaccessCode = z.infer<typeof dbaccessCodeSchema>;
export type SendsmsCode = z.infer<typeof sendsmsCodeSchema>;
export type PaymentpromptCode = z.infer<typeof paymentpromptCodeSchema>;
export type CustomActionCode = z.infer<typeof customActionCodeSchema>;

/** A new action in the form: post, restapi, POST, application/json. */
export function createActionDraft(): ActionOf<'restapi'> {
  return {
    actionName: '',
    actionType: 'post',
    inheritsPlugin: 'restapi',
    code: restapiCodeSchema.parse({}),
  };
}
