import { useQuery } from '@tanstack/react-query';
import type { App } from '../../../shared/api/apps.schema';
import { isNetworkFailure, isOk } from '../../lib/api';
import { findFeaturedTemplates } from '../../../shared/api/templates.calls';
import { call, queryKey } from '../../lib/call';

/** The featured templates, one query for the templates screen, the home pages and the public gallery. */
export function useFeaturedTemplates() {
  return useQuery({
    queryKey: queryKey(findFeaturedTemplates),
    queryFn: async (): Promise<App[]> => {
      const reply = await call(findFeaturedTemplates);
      if (isOk(reply) && Array.isArray(reply.data)) return reply.data;
      throw new Error(
        isNetworkFailure(reply)
          ? 'An error occurred while loading the templates. Check your connection and try again.'
          : reply.message || 'The templates could not be loaded.',
      );
    },
    staleTime: 5 * 60_000,
  });
}
