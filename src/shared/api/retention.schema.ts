import { z } from 'zod';
import { MAX_RETENTION_DAYS, RETENTION_KINDS, type RetentionKind } from '../billing/plans';

/**
 * How long an account's data is kept (docs/operations.md, "Data lifetime"): per kind, the plan's days capped by the
 * operator's settings, and what the account asked for (less, never more).
 */
export const RETENTION_LABELS: Record<RetentionKind, string> = {
  logs: 'Log lines',
  inputs: 'Inputs',
  sessions: 'Session records',
  actionResults: 'Action results',
  messages: 'Messages',
  media: 'Media files',
};

export const RETENTION_MESSAGES = {
  tooShort: (label: string) => `${label}: keep them at least 1 day (a retention of 0 days would delete them as they arrive).`,
  tooLong: (label: string, bound: number) => `${label}: at most ${bound} days on this account (its plan's and the installation's bound).`,
  notWhole: (label: string) => `${label}: the retention is a whole number of days.`,
  saved: 'Data retention saved',
} as const;

export const retentionFigureSchema = z.object({
  kind: z.enum(RETENTION_KINDS),
  label: z.string(),
  /** Days its rows are kept now: the least of the plan's, the operator's and the account's; null: kept for ever. */
  days: z.number().int().nullable(),
  /** The most the account may ask for (the plan's or the operator's, else ten years). */
  bound: z.number().int(),
  /** The plan's figure (null: none, the operator's applies). */
  planDays: z.number().int().nullable(),
  /** The operator's setting (null: none, kept for ever unless the plan says otherwise). */
  operatorDays: z.number().int().nullable(),
  /** What the account asked for (null: nothing, the bound applies). */
  askedDays: z.number().int().nullable(),
});
export type RetentionFigure = z.infer<typeof retentionFigureSchema>;

export const accountRetentionSchema = z.object({
  /** The plan the figures come from: its title, or `No plan limits` (an admin's account, billing off). */
  planTitle: z.string(),
  figures: z.array(retentionFigureSchema),
});
export type AccountRetention = z.infer<typeof accountRetentionSchema>;

/**
 * What the account asks for, by kind: a number of days, or null to go back to the bound. Kinds left out keep their
 * ask. Any number is accepted here; the service says which one is out of bounds and why.
 */
export const saveRetentionBodySchema = z.object({
  days: z
    .object(
      Object.fromEntries(RETENTION_KINDS.map((k) => [k, z.number().nullable().optional()])) as Record<
        RetentionKind,
        z.ZodOptional<z.ZodNullable<z.ZodNumber>>
      >,
    )
    .strict(),
});
export type SaveRetentionBody = z.infer<typeof saveRetentionBodySchema>;

export { MAX_RETENTION_DAYS };
