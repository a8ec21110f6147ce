import type {
  BuyShortCodeBody,
  CheckoutReply,
  ConnectAppBody,
  CreateShortCodeBody,
  Extension,
  Provider,
  ProvisionShortCodeBody,
  Purchase,
  RegisterProviderBody,
  RenewShortCodeBody,
  ShortCodeCountry,
  UpdateProviderAccessBody,
} from '../../../shared/api/shortcodes.schema';
import { api, type ApiReply } from '../../lib/api';

export const PROVIDERS_PATH = '/shortcode-providers';
export const CATALOGUE_PATH = '/provision-shortcode';
export const BUY_PATH = '/buy-shortcode';
export const MY_SHORTCODES_PATH = '/my-shortcodes';
export const connectPath = (uuid: string) => `/connect-shortcode/${encodeURIComponent(uuid)}`;

/** Buy and renew answer the checkout reply; a refusal (or no server) is only the envelope. */
type CheckoutAnswer = ApiReply<CheckoutReply['data']> & Partial<Pick<CheckoutReply, 'redirectUrl' | 'reference'>>;

// ---- providers (admins) ----

export const findProviders = () => api<Provider[]>('/api/getAllProviders');

export const registerProvider = (body: RegisterProviderBody) => api<Provider>('/api/registerProvider', { body });

export const deleteProvider = (uuid: string) => api(`/api/deleteProvider/${encodeURIComponent(uuid)}`);

export const rotateProviderKey = (uuid: string) => api<Provider>(`/api/rotateProviderKey/${encodeURIComponent(uuid)}`, { body: {} });

export const updateProviderAccess = (uuid: string, body: UpdateProviderAccessBody) =>
  api<Provider>(`/api/updateProviderAccess/${encodeURIComponent(uuid)}`, { body });

// ---- the extension catalogue (admins) ----

export const findCatalogue = () => api<Extension[]>('/api/getAllAvailableShortCodes');

export const createExtension = (body: CreateShortCodeBody) => api<Extension>('/api/subscription/createShortCode', { body });

export const deleteExtension = (uuid: string) => api(`/api/deleteShortCode/${encodeURIComponent(uuid)}`);

export const provisionExtension = (body: ProvisionShortCodeBody) => api<Purchase>('/api/subscription/provisionShortCode', { body });

// ---- buying, renewing, connecting (everyone) ----

export const findAvailableExtensions = (country: ShortCodeCountry) =>
  api<Extension[]>(`/api/getAvailableShortCodes/${encodeURIComponent(country)}`);

export const buyShortCode = (body: BuyShortCodeBody): Promise<CheckoutAnswer> => api('/api/subscription/buyshortcode', { body });

export const renewShortCode = (body: RenewShortCodeBody): Promise<CheckoutAnswer> => api('/api/subscription/renewShortcode', { body });

export const findPurchases = () => api<Purchase[]>('/api/myPurchasedShortCodes');

export const getPurchase = (uuid: string) => api<Purchase>(`/api/getShortCodeByUuid/${encodeURIComponent(uuid)}`);

/** The path keeps the call's trailing slash. */
export const connectApp = (body: ConnectAppBody) => api<Purchase>('/api/connectAppToShortCode/', { body });
