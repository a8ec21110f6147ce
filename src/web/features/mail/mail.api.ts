import type { OutboxMail } from '../../../shared/api/mail.schema';
import { api } from '../../lib/api';

export const MAIL_OUTBOX_PATH = '/admin/mail-outbox';

/** The most the outbox call gives; the screen pages them ten at a time. */
export const MAIL_OUTBOX_LIMIT = 500;

export const findOutboxMails = () => api<OutboxMail[]>(`/api/admin/mail-outbox?limit=${MAIL_OUTBOX_LIMIT}`);
