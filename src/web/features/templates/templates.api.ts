import type { App } from '../../../shared/api/apps.schema';
import { api } from '../../lib/api';

/** GET /featuredTemplates (public, no token): the apps anyone may run in the emulator and clone. */
export const findFeaturedTemplates = () => api<App[]>('/featuredTemplates', { auth: false });
