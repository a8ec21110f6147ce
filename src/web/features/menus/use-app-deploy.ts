import { showToast } from '../../lib/toast';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { failureText, isOk } from '../../lib/api';
import { queryKeys } from '../../lib/query-keys';
import type { DeployOutcome } from './app-deploy-panel';
import type { DeployNaming } from './app-deploy-dialog';
import { deployChanges } from '../../../shared/api/menus.calls';
import { call } from '../../lib/call';

/**
 * Deploy: GET /api/deployChanges/{appId}?name=&note= (each only when given), toasted; the outcome (refused with the checks' errors, or deployed
 * with warnings) stays for the deploy panel until dismissed or the next deploy.
 */
export function useAppDeploy(appId: string) {
  const queryClient = useQueryClient();
  const [isDeploying, setDeploying] = useState(false);
  const [outcome, setOutcome] = useState<DeployOutcome | null>(null);

  // The naming of the last deploy, so "Deploy anyway" after failed test cases deploys it as it was named.
  const [lastNaming, setLastNaming] = useState<DeployNaming>({ name: '', note: '' });
  const deploy = async ({ name, note, override }: DeployNaming & { override?: string } = { name: '', note: '' }) => {
    setDeploying(true);
    setOutcome(null);
    setLastNaming({ name, note });
    const query = { ...(name ? { name } : {}), ...(note ? { note } : {}), ...(override ? { override } : {}) };
    const reply = await call(deployChanges, { params: { appId }, query });
    setDeploying(false);
    if (isOk(reply) && reply.data) {
      const version = reply.data.version;
      setOutcome({ kind: 'deployed', message: reply.message ?? '', version, warnings: reply.data.warnings });
      const warnings = reply.data.warnings.length;
      showToast({
        color: 'teal',
        title: `Deployed version ${version}${reply.data.name ? ` "${reply.data.name}"` : ''}`,
        message: warnings ? `Live now, with ${warnings} warning${warnings > 1 ? 's' : ''} to look at.` : 'Your changes are live.',
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.appVersions(appId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.app(appId) }),
      ]);
      return;
    }
    const message = failureText(reply, 'The app could not be deployed.');
    if (reply.unchangedSince) {
      // Nothing went wrong: the live version already is the draft.
      showToast({ color: 'blue', title: 'Nothing to deploy', message });
      return;
    }
    showToast({ color: 'red', title: 'Not deployed', message });
    setOutcome({ kind: 'refused', message, errors: reply.errors ?? [], warnings: reply.warnings ?? [], failures: reply.failures ?? [] });
  };

  return {
    isDeploying,
    outcome,
    deploy,
    deployAnyway: (override: string) => deploy({ ...lastNaming, override }),
    dismiss: () => setOutcome(null),
  };
}
