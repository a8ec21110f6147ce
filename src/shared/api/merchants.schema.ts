import { z } from 'zod';
import { APP_CHANNELS } from '../app/app-version.schema';
import { newPasswordSchema } from './auth.schema';

/**
 * Merchants, their users and their transactions: the calls, bodies, replies and messages shared by the
 * console's screens and the server (docs/merchants.md has the model and the role table). Every reply is the
 * envelope `{ status, message, data? }`; a merchant the caller may not see answers '04' like one that does not
 * exist.
 *
 * Admins (audience `admin`; the role table in src/shared/roles.ts narrows each call to all or assigned merchants):
 * - `GET  /api/merchant/list` -> `data`: {@link merchantSchema}[] (All Merchants: those the caller may read)
 * - `GET  /api/merchant/my-merchants` -> `data`: merchantSchema[] (My Merchants: those assigned to the caller)
 * - `POST /api/merchant/create` {@link merchantBodySchema} -> `data`: merchantSchema
 * - `POST /merchant/update` {@link updateMerchantBodySchema} -> `data`: merchantSchema
 * - `POST /merchant/delete` {@link uuidBodySchema} -> `{ status, message }` (its users and apps go with it)
 * - `GET  /api/admin/merchants/{uuid}` -> `data`: merchantSchema
 * - `POST /api/merchant/user/create` {@link createMerchantUserBodySchema} -> `data`: {@link merchantUserSchema}
 * - `POST /merchant/user/delete` {@link uuidBodySchema} -> `{ status, message }`
 *
 * Admins and merchant users (a merchant user only ever reaches their own merchant):
 * - `GET  /api/merchant/{merchantUuid}/users` -> `data`: merchantUserSchema[]
 * - `GET  /api/merchant/profile` -> `data`: merchantSchema, the caller's own merchant ('No merchant account found')
 * - `GET  /api/merchant/transaction-types` -> `data`: {@link transactionTypeSchema}[]
 * - `POST /api/merchant/transactions` {@link transactionSearchBodySchema} -> `data`: {@link transactionSchema}[]
 *   (newest first, at most {@link TRANSACTIONS_SHOWN_MAX}) and `totals` by status and currency over every match
 */

export const BUSINESS_CATEGORIES = ['retail', 'service', 'wholesale', 'technology', 'finance', 'other'] as const;
export type BusinessCategory = (typeof BUSINESS_CATEGORIES)[number];

export const TRANSACTION_STATUSES = ['SUCCESS', 'FAILED', 'PENDING'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** What a merchant's transactions are: its apps' payment prompts, and its own plan, credit and shortcode payments. */
export const TRANSACTION_TYPES = [
  { value: 'paymentprompt', label: 'App payment' },
  { value: 'plan', label: 'Plan' },
  { value: 'credit', label: 'Account credit' },
  { value: 'shortcode', label: 'Shortcode' },
] as const;

/** The transaction screen's range starts this many days before now. */
export const TRANSACTION_RANGE_DEFAULT_DAYS = 2;
/** The screen searches this long after the transaction types have loaded. */
export const TRANSACTION_AUTO_SEARCH_MS = 3000;
/** Rows a search returns (the totals count every match). */
export const TRANSACTIONS_SHOWN_MAX = 500;
/** A search covers at most this many days. */
export const TRANSACTION_RANGE_MAX_DAYS = 366;

export const MERCHANT_MESSAGES = {
  requiredFields: 'Please complete all required fields',
  requiredProfileFields: 'Please fill in all required fields',
  passwordsDiffer: 'Passwords do not match',
  selectRole: 'Please select at least one role',
  invalidEmail: 'Invalid email',
  businessCategory: 'Choose a business category',
  noMerchant: 'No merchant account found',
  merchantNotFound: 'Merchant not found',
  userNotFound: 'User not found',
  merchantHasNoUsers: 'This merchant has no users yet: create one before cloning an app into its account',
  merchantEmailTaken: 'A merchant with this email already exists',
  dateRange: 'Please select a date range',
  rangeTooLong: `Choose a date range of at most ${TRANSACTION_RANGE_MAX_DAYS} days`,
  noTransactions: 'No transactions found',
  registered: 'Merchant registered successfully',
  updated: 'Merchant updated successfully',
  deleted: 'Merchant deleted',
  userCreated: 'User created successfully',
  userDeleted: 'User deleted',
} as const;

const required = (max: number, message: string = MERCHANT_MESSAGES.requiredFields) => z.string().trim().min(1, message).max(max);
const emailOf = (message: string) =>
  required(254, message)
    .toLowerCase()
    .refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), MERCHANT_MESSAGES.invalidEmail);
const uuidText = z.string().trim().max(64);

/** Register New Merchant and the edit modal: every field but isDeveloper is required. */
export const merchantBodySchema = z.object({
  fullName: required(120),
  email: emailOf(MERCHANT_MESSAGES.requiredFields),
  mobileNumber: required(32),
  companyName: required(120),
  businessCategory: z.enum(BUSINESS_CATEGORIES, { message: MERCHANT_MESSAGES.requiredFields }),
  isDeveloper: z.boolean().default(false),
});
export type MerchantBody = z.infer<typeof merchantBodySchema>;

export const updateMerchantBodySchema = merchantBodySchema.extend({ uuid: uuidText });
export type UpdateMerchantBody = z.infer<typeof updateMerchantBodySchema>;

export const uuidBodySchema = z.object({ uuid: uuidText });

export const merchantSchema = z.object({
  uuid: z.string(),
  fullName: z.string(),
  email: z.string(),
  mobileNumber: z.string(),
  companyName: z.string(),
  businessCategory: z.string(),
  isDeveloper: z.boolean(),
  createdAt: z.string(),
});
export type Merchant = z.infer<typeof merchantSchema>;

/**
 * The password an admin chooses for a new merchant user or admin: required (the forms' message), then the
 * registration rule (auth.schema.ts), so no account is made with a password its owner could not have chosen.
 */
export const chosenPasswordSchema = z
  .string()
  .min(1, { message: MERCHANT_MESSAGES.requiredFields, abort: true })
  .pipe(newPasswordSchema('Password'));

/** The form's fields for a new account with a password chosen twice (Create New User, Create New Admin User). */
export const accountFormSchema = z
  .object({
    fullName: required(120),
    email: emailOf(MERCHANT_MESSAGES.requiredFields),
    mobileNumber: required(32),
    password: chosenPasswordSchema,
    confirmPassword: z.string().min(1, MERCHANT_MESSAGES.requiredFields).max(200),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: MERCHANT_MESSAGES.passwordsDiffer });

/** POST /api/merchant/user/create: the form's fields without confirmPassword, which is never sent. */
export const createMerchantUserBodySchema = z.object({
  fullName: required(120),
  email: emailOf(MERCHANT_MESSAGES.requiredFields),
  mobileNumber: required(32),
  password: chosenPasswordSchema,
  isDeveloper: z.boolean().default(false),
  merchantUuid: uuidText,
});
export type CreateMerchantUserBody = z.infer<typeof createMerchantUserBodySchema>;

export const merchantUserSchema = z.object({
  uuid: z.string(),
  fullName: z.string(),
  email: z.string(),
  mobileNumber: z.string(),
  isDeveloper: z.boolean(),
  merchantUuid: z.string(),
});
export type MerchantUser = z.infer<typeof merchantUserSchema>;

export const transactionTypeSchema = z.object({ value: z.string(), label: z.string() });

/**
 * POST /api/merchant/transactions. `userUuid` is the merchant's uuid (an admin's `/merchant/trxns/{merchantUuid}`);
 * empty for the caller's own merchant. `status` and `transactionType` empty: all.
 */
export const transactionSearchBodySchema = z.object({
  startDate: z.string().trim().max(40).default(''),
  endDate: z.string().trim().max(40).default(''),
  userUuid: uuidText.default(''),
  status: z.union([z.enum(TRANSACTION_STATUSES), z.literal('')]).default(''),
  transactionType: z.string().trim().max(40).default(''),
});
export type TransactionSearchBody = z.input<typeof transactionSearchBodySchema>;

/** The range the search reads, or the message the screen and the server give. */
export function parseTransactionRange(startDate: string, endDate: string): { start: Date; end: Date } | { message: string } {
  const start = new Date(startDate);
  const end = new Date(endDate);
  if (!startDate || !endDate || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start > end)
    return { message: MERCHANT_MESSAGES.dateRange };
  if (end.getTime() - start.getTime() > TRANSACTION_RANGE_MAX_DAYS * 86_400_000) return { message: MERCHANT_MESSAGES.rangeTooLong };
  return { start, end };
}

/**
 * What of a transaction's stored metadata its viewers may read: how it was paid and what it paid for. Anything
 * else the server keeps there (the sandbox checkout's secret and its link, the callback event that settled it)
 * is never sent: replies are built with {@link toTransactionMetadata} and their schema strips unknown keys.
 */
export const transactionMetadataSchema = z.object({
  /** A payment prompt's: the provider, the payer's number and network, the session that asked. */
  provider: z.string().optional(),
  mobile: z.string().optional(),
  network: z.string().optional(),
  sessionId: z.string().optional(),
  providerReference: z.string().optional(),
  /** Why it failed, as the provider or the expiry said. */
  error: z.string().optional(),
  failureReason: z.string().optional(),
  /** A console payment's: `plan`, `credit`, `buy` or `renew` (a shortcode), and what it bought. */
  kind: z.string().optional(),
  plan: z.string().optional(),
  months: z.number().optional(),
  isAnnual: z.boolean().optional(),
  isChange: z.boolean().optional(),
  paidFrom: z.string().optional(),
  purchaseId: z.string().optional(),
  leaseCount: z.number().optional(),
  /** The amount in USD when it was asked, and the units of the charged currency per USD used. */
  amountUsd: z.number().optional(),
  usdRate: z.number().optional(),
});
export type TransactionMetadata = z.infer<typeof transactionMetadataSchema>;

/** The readable fields of stored metadata, each kept only when it has its stated type; the rest left out. */
export function toTransactionMetadata(metadata: unknown): TransactionMetadata {
  const stored = metadata !== null && typeof metadata === 'object' ? (metadata as Record<string, unknown>) : {};
  const readable: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(transactionMetadataSchema.shape)) {
    const parsed = field.safeParse(stored[key]);
    if (parsed.success && parsed.data !== undefined) readable[key] = parsed.data;
  }
  return readable as TransactionMetadata;
}

/** The app a transaction belongs to, by name; `canOpen` when the viewer may open its screens. */
export const transactionAppSchema = z.object({
  appId: z.string(),
  appName: z.string(),
  channel: z.enum(APP_CHANNELS),
  canOpen: z.boolean(),
});
export type TransactionApp = z.infer<typeof transactionAppSchema>;

export const transactionSchema = z.object({
  reference: z.string(),
  transactionType: z.string(),
  amount: z.string(),
  currency: z.string(),
  status: z.string(),
  createdAt: z.string(),
  userUuid: z.string().nullable(),
  appId: z.string().nullable(),
  /** Null when the transaction belongs to no app, or (with an `appId`) when that app has been deleted. */
  app: transactionAppSchema.nullable(),
  shortcode: z.string(),
  metadata: transactionMetadataSchema,
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionTotalSchema = z.object({ status: z.string(), currency: z.string(), count: z.number(), amount: z.string() });
export type TransactionTotal = z.infer<typeof transactionTotalSchema>;
