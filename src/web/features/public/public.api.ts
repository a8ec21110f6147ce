import type { ContactBody } from '../../../shared/api/contact.schema';
import { api } from '../../lib/api';

/** POST /api/contactus (public, no token): a visitor's message to the team. */
export const sendContactRequest = (body: ContactBody) => api('/api/contactus', { body, auth: false });
