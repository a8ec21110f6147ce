import type { SmsMessage } from '../../../shared/api/sms.schema';
import { api } from '../../lib/api';

export const SMS_OUTBOX_PATH = '/sms-outbox';

/** The most the outbox call gives; the screen pages them ten at a time. */
export const SMS_OUTBOX_LIMIT = 500;

export const findSmsMessages = () => api<SmsMessage[]>(`/api/sms/outbox?limit=${SMS_OUTBOX_LIMIT}`);
