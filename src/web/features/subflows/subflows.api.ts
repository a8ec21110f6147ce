import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createSubflow, deleteSubflow, findSubflows, updateSubflow } from '../../../shared/api/subflows.calls';
import type { SubflowBody } from '../../../shared/api/subflows.schema';
import { call, callQuery } from '../../lib/call';

/** The console's address of the sub-flows list, and of one sub-flow's menus (the designer, as an app's). */
export const SUBFLOWS_PATH = '/subflows';
export const subflowDesignPath = (subflowId: string) => `/app/design/${subflowId}`;
export const SUBFLOWS_KEY = ['subflows'];

export function useSubflows(enabled = true) {
  return useQuery({ ...callQuery(findSubflows, {}, 'The sub-flows could not be loaded.'), enabled });
}

/** Creates (no `subflowId`) or changes a sub-flow; the list reloads on success. */
export function useSaveSubflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ subflowId, body }: { subflowId?: string; body: SubflowBody }) =>
      subflowId ? call(updateSubflow, { params: { subflowId }, body }) : call(createSubflow, { body }),
    onSuccess: (reply) => {
      if (reply.status === '00') void queryClient.invalidateQueries({ queryKey: SUBFLOWS_KEY });
    },
  });
}

export const removeSubflow = (subflowId: string) => call(deleteSubflow, { params: { subflowId } });
