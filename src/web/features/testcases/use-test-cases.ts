import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createTestCase, deleteTestCase, findTestCases, runTestCases, updateTestCase } from '../../../shared/api/test-cases.calls';
import type { TestCaseBody } from '../../../shared/api/test-cases.schema';
import { call, callQuery, queryKey } from '../../lib/call';

/** Every query of one app's cases, to reload after a save or delete. */
export const testCasesKey = (appId: string) => queryKey(findTestCases, { params: { appId } });

export function useTestCases(appId: string) {
  return useQuery(callQuery(findTestCases, { params: { appId } }, 'The test cases could not be loaded.'));
}

/** Runs every case against the draft; the reply (the run, or the refusal) goes to the screen as it is. */
export function useTestRun(appId: string) {
  return useMutation({ mutationFn: () => call(runTestCases, { params: { appId } }) });
}

/** Saves a case: a new one (no `caseId`) or a change; the list reloads on success. */
export function useSaveTestCase(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ caseId, body }: { caseId?: string; body: TestCaseBody }) =>
      caseId ? call(updateTestCase, { params: { appId, caseId }, body }) : call(createTestCase, { params: { appId }, body }),
    onSuccess: (reply) => {
      if (reply.status === '00') void queryClient.invalidateQueries({ queryKey: testCasesKey(appId) });
    },
  });
}

export const removeTestCase = (appId: string, caseId: string) => call(deleteTestCase, { params: { appId, caseId } });
