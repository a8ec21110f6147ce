/**
 * The envelope's `status` codes (DESIGN.md section 4) and the one error type that services throw.
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
export type ErrorKind = Exclude<keyof typeof STATUS, 'ok' | 'redirect'>;

/** HTTP status for each error kind. `notAllowed` is 403 unless the caller is not signed in (401). */
export const HTTP_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  upstream: 502,
  notFound: 404,
  notAllowed: 403,
  internal: 500,
};

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly httpStatus: number;
  /** Extra fields for the envelope, e.g. `{ errors: [...] }` for pre-deploy checks. */
  readonly extra?: Record<string, unknown>;

  constructor(kind: ErrorKind, message: string, options: { httpStatus?: number; extra?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.httpStatus = options.httpStatus ?? HTTP_STATUS[kind];
    this.extra = options.extra;
  }

  get status(): StatusCode {
    return STATUS[this.kind];
  }
}

export const invalid = (message: string, extra?: Record<string, unknown>) => new AppError('invalid', message, { extra });
export const notFound = (message = 'Not found') => new AppError('notFound', message);
export const notAllowed = (message = 'You are not allowed to do this') => new AppError('notAllowed', message);
export const unauthenticated = (message = 'Please log in to continue') =>
  new AppError('notAllowed', message, { httpStatus: 401 });
