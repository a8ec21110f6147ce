export const MAIL_OUTBOX_PATH = '/admin/mail-outbox';

/** The most the outbox call gives; the screen pages them ten at a time. */
export const MAIL_OUTBOX_LIMIT = 500;
