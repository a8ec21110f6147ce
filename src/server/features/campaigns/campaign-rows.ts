import type { campaigns } from '../../../db/schema';

/** A campaign as stored. */
export type CampaignRow = typeof campaigns.$inferSelect;

/** `{dial}` in a campaign's SMS is the USSD app's dial string. */
export const DIAL_PLACEHOLDER = '{dial}';
