/**
 * The envelope's `status` codes (docs/product.md, Conventions) and the one error type that services throw.
 * The server's error handler is the only place that turns an AppError into an HTTP reply.
 */
export const STATUS = {
  ok: '00',
  /** Continue elsewhere, e.g. `{ status: '01', redirectUrl }` for a payment page. */
  redirect: '01',
  invalid: '02',
  upstream: '03',
  notFound: '04',
  notAllowed: '05',
  internal: '99',
} as const;

export type StatusCode = (typeof STATUS)[keyof typeof STATUS];

/**
 * Every kind of error a service throws, with its HTTP status and the envelope's `status`: the one table the
 * error handler answers from. A kind is chosen by what the caller should do, so its status never needs overriding.
 */
export const ERROR_KINDS = {
  invalid: { httpStatus: 400, status: STATUS.invalid },
  /** The request clashes with what is stored: a duplicate, or nothing to do (a deploy without changes). */
  conflict: { httpStatus: 409, status: STATUS.invalid },
  /** A plan limit was reached (apps, menus, SMS): nothing changed; a payment or upgrade lifts it (docs/billing.md). */
  limitReached: { httpStatus: 402, status: STATUS.invalid },
  upstream: { httpStatus: 502, status: STATUS.upstream },
  notFound: { httpStatus: 404, status: STATUS.notFound },
  /** It was there and is no more, for good: a media file whose bytes the retention period removed (docs/media.md). */
  gone: { httpStatus: 410, status: STATUS.notFound },
  /** Not signed in, or a credential (token, password, signature) that does not check out. */
  unauthenticated: { httpStatus: 401, status: STATUS.notAllowed },
  notAllowed: { httpStatus: 403, status: STATUS.notAllowed },
  /** The request's body stopped arriving (an upload that sent nothing for a while): nothing changed; send it again. */
  requestTimeout: { httpStatus: 408, status: STATUS.invalid },
  /** A rate limit or a bound on requests in flight was reached; the same request may succeed later. */
  tooManyRequests: { httpStatus: 429, status: STATUS.notAllowed },
  internal: { httpStatus: 500, status: STATUS.internal },
  /** What the request stands on (the database) did not answer; nothing changed and it may be tried again. */
  unavailable: { httpStatus: 503, status: STATUS.internal },
} as const satisfies Record<string, { httpStatus: number; status: StatusCode }>;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** The kind an HTTP status stands for (errors raised outside our services, e.g. by Fastify); `invalid` for other 4xx. */
export function findErrorKind(httpStatus: number): ErrorKind {
  const kinds = Object.keys(ERROR_KINDS) as ErrorKind[];
  return kinds.find((kind) => ERROR_KINDS[kind].httpStatus === httpStatus) ?? 'invalid';
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  /** Extra fields for the envelope, e.g. `{ errors: [...] }` for pre-deploy checks. */
  readonly extra?: Record<string, unknown>;

  constructor(kind: ErrorKind, message: string, options: { extra?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.extra = options.extra;
  }

  get httpStatus(): number {
    return ERROR_KINDS[this.kind].httpStatus;
  }

  get status(): StatusCode {
    return ERROR_KINDS[this.kind].status;
  }
}

/** The message of anything thrown: an Error's message, else the value as text. */
export function toErrorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const invalid = (message: string, extra?: Record<string, unknown>) => new AppError('invalid', message, { extra });
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError('conflict', message, { extra });
export const notFound = (message = 'Not found') => new AppError('notFound', message);
export const notAllowed = (message = 'You are not allowed to do this') => new AppError('notAllowed', message);
export const unauthenticated = (message = 'Please log in to continue') => new AppError('unauthenticated', message);
/** A rate limit was reached (sign-in attempts, the contact form). */
export const unavailable = (message: string) => new AppError('unavailable', message);
export const tooManyAttempts = (message = 'Too many attempts. Please wait a minute and try again.') =>
  new AppError('tooManyRequests', message);
