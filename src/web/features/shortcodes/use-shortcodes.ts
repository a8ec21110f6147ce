import { useQuery } from '@tanstack/react-query';
import {
  buildDialPattern,
  type Extension,
  type Provider,
  type Purchase,
  type ShortcodeCountry,
} from '../../../shared/api/shortcodes.schema';
import { isNotFound, readData } from '../../lib/api';
import { call, callQuery, queryKey } from '../../lib/call';
import { useConfirmedCall } from '../../lib/use-confirmed-call';
import {
  deleteExtension,
  deleteProvider,
  findAvailableExtensions,
  findCatalogue,
  findProviders,
  findPurchases,
  getPurchase,
  rotateProviderKey,
} from '../../../shared/api/shortcodes.calls';

/**
 * The prefix of every shortcodes query (shortcodes.calls.ts): the providers, the catalogue, what each country
 * offers, the account's purchases. A change to the catalogue or a purchase reloads them all.
 */
export const SHORTCODES_KEY = ['shortcodes'];

/** The providers' key, which a change to a provider reloads. */
export const PROVIDERS_KEY = queryKey(findProviders);

/** GET /api/getAllProviders (admins). */
export function useProviders() {
  return useQuery(callQuery(findProviders, {}, 'The providers could not be loaded.'));
}

/** GET /api/getAllAvailableShortCodes (admins): the whole catalogue, held and free. */
export function useCatalogue() {
  return useQuery(callQuery(findCatalogue, {}, 'The extensions could not be loaded.'));
}

/** GET /api/getAvailableShortCodes/{country}: what can be bought there now. */
export function useExtensionsOnSale(country: ShortcodeCountry) {
  return useQuery(callQuery(findAvailableExtensions, { params: { country } }, `The shortcodes of ${country} could not be loaded.`));
}

/**
 * GET /api/myPurchasedShortCodes. Read again when the window regains focus: the payment is made in another tab,
 * and coming back should show the shortcode active.
 */
export function usePurchases() {
  return useQuery({ ...callQuery(findPurchases, {}, 'Your shortcodes could not be loaded.'), refetchOnWindowFocus: true });
}

/** The purchase answered '04': it does not exist or is another account's. */
export class PurchaseNotFoundError extends Error {}

/** GET /api/getShortCodeByUuid/{uuid}; a 404 is a PurchaseNotFoundError and is not retried. */
export function usePurchase(uuid: string) {
  return useQuery({
    queryKey: queryKey(getPurchase, { params: { uuid } }),
    queryFn: async (): Promise<Purchase> => {
      const reply = await call(getPurchase, { params: { uuid } });
      if (isNotFound(reply)) throw new PurchaseNotFoundError(reply.message || 'Shortcode not found');
      return readData(reply, 'The shortcode could not be loaded.');
    },
    retry: (count, err) => !(err instanceof PurchaseNotFoundError) && count < 1,
  });
}

/** Asks first, then deletes; the outcome is a toast with the server's message, and the shortcode queries reload. */
export function useDeleteProviderConfirm(): (provider: Provider) => void {
  const confirm = useConfirmedCall(SHORTCODES_KEY);
  return (provider) =>
    confirm({
      title: `Delete ${provider.providerName}`,
      question: `Are you sure you want to delete the provider ${provider.providerName} (${provider.providerId})? Traffic its aggregator forwards to its Provider Url will no longer reach any app.`,
      done: { title: 'Deleted', message: `${provider.providerName} was deleted.` },
      refused: { title: 'Provider not deleted', message: 'The delete failed.' },
      call: () => call(deleteProvider, { params: { uuid: provider.uuid } }),
    });
}

/** Asks first, then gives the provider a new key: its aggregator must be given the new Provider Url. */
export function useRotateProviderKeyConfirm(): (provider: Provider) => void {
  const confirm = useConfirmedCall(PROVIDERS_KEY);
  return (provider) =>
    confirm({
      title: `New key for ${provider.providerName}`,
      question: `Replace the key of ${provider.providerName} (${provider.providerId})? The old key stops working at once: traffic its aggregator sends with it is refused until the aggregator is given the new Provider Url.`,
      confirmLabel: 'Replace key',
      done: { title: 'Key replaced', message: `Give ${provider.providerName}'s aggregator its new Provider Url.` },
      refused: { title: 'Key not replaced', message: 'The key could not be replaced.' },
      call: () => call(rotateProviderKey, { params: { uuid: provider.uuid } }),
    });
}

export function useDeleteExtensionConfirm(): (extension: Extension) => void {
  const confirm = useConfirmedCall(SHORTCODES_KEY);
  return (extension) =>
    confirm({
      title: `Delete ${buildDialPattern(extension)}`,
      question: `Are you sure you want to delete the extension ${buildDialPattern(extension)}? It will no longer be offered to buyers.`,
      done: { title: 'Deleted', message: `${buildDialPattern(extension)} was deleted.` },
      refused: { title: 'Extension not deleted', message: 'The delete failed.' },
      call: () => call(deleteExtension, { params: { uuid: extension.uuid } }),
    });
}
