import type { RouteObject } from 'react-router';
import { AUDIENCES_PATH, CAMPAIGNS_PATH, NEW_CAMPAIGN_PATH } from './campaigns.api';

/** The account's campaigns and their audiences (docs/campaigns.md, "The console"). */
export const campaignsRoutes: RouteObject[] = [
  { path: CAMPAIGNS_PATH, lazy: async () => ({ Component: (await import('./campaign-list-page')).CampaignListPage }) },
  { path: AUDIENCES_PATH, lazy: async () => ({ Component: (await import('./audience-list-page')).AudienceListPage }) },
  { path: NEW_CAMPAIGN_PATH, lazy: async () => ({ Component: (await import('./campaign-edit-page')).CampaignEditPage }) },
  { path: '/campaigns/:campaignId/edit', lazy: async () => ({ Component: (await import('./campaign-edit-page')).CampaignEditPage }) },
  { path: '/campaigns/:campaignId', lazy: async () => ({ Component: (await import('./campaign-page')).CampaignPage }) },
];
