import type { SessionPath } from '../../../shared/api/monitoring.schema';
import { api } from '../../lib/api';

/** POST /debug/sessionPath: the menus a session was shown and the rules it took. */
export const findSessionPath = (appId: string, sessionId: string) => api<SessionPath>('/debug/sessionPath', { body: { appId, sessionId } });
