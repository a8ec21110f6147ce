/**
 * The dashboard area's calls (the server's features/dashboard): the open sessions of live data and the app's
 * dashboard. Each returns the envelope untouched; the screens decide what a non-'00' answer means.
 */
import type { z } from 'zod';
import type { DashboardEnvironment, dashboardSchema, liveItemSchema } from '../../../shared/api/monitoring.schema';
import { api } from '../../lib/api';

export type LiveItem = z.infer<typeof liveItemSchema>;
export type DashboardData = z.infer<typeof dashboardSchema>;

const id = (appId: string) => encodeURIComponent(appId);

export const findLiveItems = (appId: string) => api<LiveItem[]>(`/dashboard/liveView/${id(appId)}`);

export const getDashboard = (appId: string, environment: DashboardEnvironment) =>
  api<DashboardData>(`/api/dashboard/appDashboard/${id(appId)}?environment=${environment}`);
