/** The dashboard area's types; its calls are declared in src/shared/api/dashboard.calls.ts. */
import type { z } from 'zod';
import type { dashboardSchema, liveItemSchema } from '../../../shared/api/monitoring.schema';

export type LiveItem = z.infer<typeof liveItemSchema>;
export type DashboardData = z.infer<typeof dashboardSchema>;
