export const SMS_OUTBOX_PATH = '/sms-outbox';

/** The most the outbox call gives; the screen pages them ten at a time. */
export const SMS_OUTBOX_LIMIT = 500;
