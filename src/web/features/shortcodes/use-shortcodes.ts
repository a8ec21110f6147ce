import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Extension, Provider, Purchase, ShortCodeCountry } from '../../../shared/api/shortcodes.schema';
import { type ApiReply, failureText, isNotFound, isOk, readData } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import {
  deleteExtension,
  deleteProvider,
  findAvailableExtensions,
  findCatalogue,
  findProviders,
  findPurchases,
  getPurchase,
} from './shortcodes.api';

/** GET /api/getAllProviders (admins). */
export function useProviders() {
  return useQuery({
    queryKey: queryKeys.shortcodeProviders,
    queryFn: async (): Promise<Provider[]> => readData(await findProviders(), 'The providers could not be loaded.'),
  });
}

/** GET /api/getAllAvailableShortCodes (admins): the whole catalogue, held and free. */
export function useCatalogue() {
  return useQuery({
    queryKey: queryKeys.shortcodeCatalogue,
    queryFn: async (): Promise<Extension[]> => readData(await findCatalogue(), 'The extensions could not be loaded.'),
  });
}

/** GET /api/getAvailableShortCodes/{country}: what can be bought there now. */
export function useExtensionsOnSale(country: ShortCodeCountry) {
  return useQuery({
    queryKey: queryKeys.shortcodesOnSale(country),
    queryFn: async (): Promise<Extension[]> =>
      readData(await findAvailableExtensions(country), `The shortcodes of ${country} could not be loaded.`),
  });
}

/**
 * GET /api/myPurchasedShortCodes. Read again when the window regains focus: the payment is made in another tab,
 * and coming back should show the shortcode active.
 */
export function usePurchases() {
  return useQuery({
    queryKey: queryKeys.shortcodePurchases,
    queryFn: async (): Promise<Purchase[]> => readData(await findPurchases(), 'Your shortcodes could not be loaded.'),
    refetchOnWindowFocus: true,
  });
}

/** The purchase answered '04': it does not exist or is another account's. */
export class PurchaseNotFoundError extends Error {}

/** GET /api/getShortCodeByUuid/{uuid}; a 404 is a PurchaseNotFoundError and is not retried. */
export function usePurchase(uuid: string) {
  return useQuery({
    queryKey: queryKeys.shortcodePurchase(uuid),
    queryFn: async (): Promise<Purchase> => {
      const reply = await getPurchase(uuid);
      if (isNotFound(reply)) throw new PurchaseNotFoundError(reply.message || 'Shortcode not found');
      return readData(reply, 'The shortcode could not be loaded.');
    },
    retry: (count, err) => !(err instanceof PurchaseNotFoundError) && count < 1,
  });
}

interface DeleteConfirm {
  title: string;
  question: string;
  /** The toast's title when the server refuses ('This provider still has extensions...'). */
  refusedTitle: string;
  doneMessage: string;
  call: () => Promise<ApiReply>;
}

/** Asks first, then deletes; the outcome is a toast with the server's message, and the shortcode queries reload. */
function useDeleteConfirm(): (confirm: DeleteConfirm) => void {
  const queryClient = useQueryClient();
  return ({ title, question, refusedTitle, doneMessage, call }) =>
    modals.openConfirmModal({
      title,
      centered: true,
      children: question,
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        const reply = await call();
        if (isOk(reply)) notifications.show({ color: 'teal', title: 'Deleted', message: reply.message || doneMessage });
        else notifications.show({ color: 'red', title: refusedTitle, message: failureText(reply, 'The delete failed.'), autoClose: 8000 });
        await queryClient.invalidateQueries({ queryKey: queryKeys.shortcodes });
      },
    });
}

export function useDeleteProviderConfirm(): (provider: Provider) => void {
  const confirm = useDeleteConfirm();
  return (provider) =>
    confirm({
      title: `Delete ${provider.providerName}`,
      question: `Are you sure you want to delete the provider ${provider.providerName} (${provider.providerId})? Traffic its aggregator forwards to its Provider Url will no longer reach any app.`,
      refusedTitle: 'Provider not deleted',
      doneMessage: `${provider.providerName} was deleted.`,
      call: () => deleteProvider(provider.uuid),
    });
}

export function useDeleteExtensionConfirm(): (extension: Extension) => void {
  const confirm = useDeleteConfirm();
  return (extension) =>
    confirm({
      title: `Delete ${extension.example}`,
      question: `Are you sure you want to delete the extension ${extension.example}? It will no longer be offered to buyers.`,
      refusedTitle: 'Extension not deleted',
      doneMessage: `${extension.example} was deleted.`,
      call: () => deleteExtension(extension.uuid),
    });
}
