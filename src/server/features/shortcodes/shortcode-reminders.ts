import { and, asc, eq, gt, lte } from 'drizzle-orm';
import { shortcodePurchases, shortcodeReminders, users } from '../../../db/schema';
import { REMINDER_DAYS_BEFORE } from '../../../shared/api/shortcodes.schema';
import { getPublicOrigin } from '../../config';
import type { AppContext } from '../../context';
import { createPeriodicTask, type PeriodicTask } from '../../periodic-task';
import { sendMail } from '../../core/mail';
import { releaseEnded } from './purchase-settlement';
import { formatDay, formatDays, getReminderReach, pickReminder } from '../../core/dates';

/** Reminders looked at per run; the next run takes the rest. */
const BATCH = 500;

export interface ShortcodeTimerReport {
  /** Purchases and reservations that ran out this run. */
  ended: boolean;
  reminded: number;
}

export type ShortcodeTimer = PeriodicTask<ShortcodeTimerReport>;

/**
 * Keeps purchases' states true to the clock (ctx.now) and mails expiry reminders: each run marks what ran out
 * (reservations past their time, purchases past expiry: routing reads them as ended from the table at once, the
 * mark frees their dial strings for the catalogue and drops them from the routes), then mails every active
 * purchase within a reminder's reach (7 and 1 days before expiry) the tightest reminder it has not had. A
 * reminder's row is inserted before its mail, under a key of purchase, expiry and days: several processes
 * running this timer mail it once, and a renewal (a new expiry) gets reminders of its own.
 */
export function createShortcodeTimer(ctx: AppContext, options: { intervalMs: number }): ShortcodeTimer {
  async function remind(now: Date): Promise<number> {
    const due = await ctx.db
      .select({
        id: shortcodePurchases.id,
        dialString: shortcodePurchases.dialString,
        expiryDate: shortcodePurchases.expiryDate,
        email: users.email,
        fullName: users.fullName,
      })
      .from(shortcodePurchases)
      .innerJoin(users, eq(users.id, shortcodePurchases.userId))
      .where(
        and(
          eq(shortcodePurchases.status, 'active'),
          gt(shortcodePurchases.expiryDate, now),
          lte(shortcodePurchases.expiryDate, getReminderReach(REMINDER_DAYS_BEFORE, now)),
        ),
      )
      .orderBy(asc(shortcodePurchases.expiryDate))
      .limit(BATCH);
    let reminded = 0;
    for (const purchase of due) {
      const expiryDate = purchase.expiryDate!;
      const daysBefore = pickReminder(REMINDER_DAYS_BEFORE, expiryDate, now);
      const [marked] = await ctx.db
        .insert(shortcodeReminders)
        .values({ purchaseId: purchase.id, expiryDate, daysBefore, sentAt: now })
        .onConflictDoNothing()
        .returning({ purchaseId: shortcodeReminders.purchaseId });
      if (!marked) continue;
      reminded++;
      await sendMail(ctx, {
        to: purchase.email,
        subject: `Your shortcode ${purchase.dialString} expires on ${formatDay(expiryDate)}`,
        text: [
          `Hello ${purchase.fullName},`,
          '',
          `Your shortcode ${purchase.dialString} expires on ${formatDay(expiryDate)} (in ${formatDays(daysBefore)}).`,
          'After that its callers hear that it has expired, and another account may take it.',
          `Renew it from My USSD Extensions: ${getPublicOrigin(ctx.config)}/my-shortcodes`,
        ].join('\n'),
      });
    }
    return reminded;
  }

  async function run(): Promise<ShortcodeTimerReport> {
    const ended = await releaseEnded(ctx, ctx.db);
    if (ended) ctx.shortcodeRoutes.invalidate();
    return { ended, reminded: await remind(ctx.now()) };
  }

  return createPeriodicTask('shortcode timer', run, { intervalMs: options.intervalMs, log: ctx.log });
}
