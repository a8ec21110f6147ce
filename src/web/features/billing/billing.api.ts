import type {
  ActivateSubscriptionBody,
  AdminSubscription,
  ChangePlanBody,
  CreditAccountBody,
  ExtendSubscriptionBody,
  MakePaymentBody,
  PaymentHistoryReply,
  PaymentReply,
  Subscription,
} from '../../../shared/api/billing.schema';
import { api, type ApiReply } from '../../lib/api';

/** The three payment calls answer the payment reply; a refusal (or no server) is only the envelope. */
export type PaymentAnswer = ApiReply<PaymentReply['data']> & Partial<Pick<PaymentReply, 'redirectUrl' | 'reference'>>;

/** A page of the history, or only the envelope when it was refused (or the server was not reached). */
type HistoryAnswer = ApiReply<PaymentHistoryReply['data']> & Partial<Pick<PaymentHistoryReply, 'page' | 'pageSize' | 'total'>>;

export const getSubscription = () => api<Subscription>('/api/subscription/current');

export const findPaymentHistory = (page: number, pageSize: number): Promise<HistoryAnswer> =>
  api(`/api/subscription/paymentHistory?page=${page}&pageSize=${pageSize}`);

export const makePayment = (body: MakePaymentBody): Promise<PaymentAnswer> => api('/api/subscription/makePayment', { body });

export const creditAccount = (body: CreditAccountBody): Promise<PaymentAnswer> => api('/api/subscription/creditAccount', { body });

export const changePlan = (body: ChangePlanBody): Promise<PaymentAnswer> => api('/api/subscription/changePlan', { body });

export const getAccountSubscription = (email: string) =>
  api<AdminSubscription>(`/api/subscription/account?email=${encodeURIComponent(email)}`);

export const extendSubscription = (body: ExtendSubscriptionBody) => api<Subscription>('/api/subscription/extend', { body });

export const activateSubscription = (body: ActivateSubscriptionBody) => api<Subscription>('/api/subscription/activate', { body });
