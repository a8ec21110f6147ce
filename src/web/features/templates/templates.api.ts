import { useQuery } from '@tanstack/react-query';
import type { App } from '../../../shared/api/apps.schema';
import { api, isOk } from '../../lib/api';

export const FEATURED_TEMPLATES_QUERY_KEY = ['templates', 'featured'] as const;

/** GET /featuredTemplates (public): the apps anyone may run in the emulator and clone. */
export function useFeaturedTemplates() {
  return useQuery({
    queryKey: FEATURED_TEMPLATES_QUERY_KEY,
    queryFn: async (): Promise<App[]> => {
      const reply = await api<App[]>('/featuredTemplates', { auth: false });
      if (isOk(reply) && Array.isArray(reply.data)) return reply.data;
      throw new Error(reply.status === undefined ? 'An error occurred while loading the templates. Check your connection and try again.' : reply.message || 'The templates could not be loaded.');
    },
    staleTime: 5 * 60_000,
  });
}
