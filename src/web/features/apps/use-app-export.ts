import { showToast } from '../../lib/toast';
import { getAppExportFileName } from '../../../shared/api/app-transfer.schema';
import type { App } from '../../../shared/api/apps.schema';
import { failureText, isOk } from '../../lib/api';
import { saveBlob } from '../../lib/save-blob';
import { exportApp } from '../../../shared/api/apps.calls';
import { call } from '../../lib/call';

/** Export on the app list and in the designer: downloads `<app-name>.dialflow.json`, or toasts why not. */
export function useAppExport(): (app: Pick<App, 'appId' | 'appName'>) => Promise<void> {
  return async (app) => {
    const reply = await call(exportApp, { params: { appId: app.appId } });
    if (!isOk(reply) || !reply.data) {
      showToast({ color: 'red', title: 'Not exported', message: failureText(reply, 'The app could not be exported.') });
      return;
    }
    const removed = reply.data.secretsRemoved.length;
    saveBlob(getAppExportFileName(app.appName), new Blob([`${JSON.stringify(reply.data, null, 2)}\n`], { type: 'application/json' }));
    showToast({
      color: 'teal',
      title: 'App exported',
      message: removed
        ? `${app.appName} was saved. ${removed} secret${removed === 1 ? ' was' : 's were'} left out: enter ${removed === 1 ? 'it' : 'them'} again after importing.`
        : `${app.appName} was saved as a file you can import into any account.`,
    });
  };
}
