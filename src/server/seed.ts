import { randomBytes } from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import { SEED_LOCK_KEY } from '../db/advisory-lock';
import type { Db } from '../db/client';
import { merchants, users } from '../db/schema';
import { createUser } from './core/accounts';
import { applyPlanPeriod } from './features/billing/plan-settlement';
import { seedShortcodeCatalogue } from './features/shortcodes/catalogue-seed';
import { getDemoBot } from './features/bots/demo-bot';
import { getFeaturedTemplates } from './features/templates/featured-templates';
import { insertAppFromDefinition, seedFeaturedTemplates } from './features/templates/templates.service';

export const DEMO_USER = { email: 'demo@dialflow.local', password: 'demo1234', fullName: 'Ama Mensah' } as const;
/** Builds WhatsApp bots (the CHATBOT role), with a deployed sample bot. */
export const DEMO_BOT_USER = { email: 'bots@dialflow.local', password: 'bots1234', fullName: 'Yaa Owusu' } as const;
export const DEMO_MERCHANT_USER = { email: 'merchant@dialflow.local', password: 'merchant1234', fullName: 'Kofi Boateng' } as const;

export interface SeedOptions {
  adminEmail: string;
  adminPassword?: string;
  demo: boolean;
  /** Where this server answers, for the Balance Enquiry template's demo REST API. */
  sandboxOrigin: string;
}

export interface SeedResult {
  seeded: boolean;
  adminEmail?: string;
  /** Set only when the password was generated, so the caller prints it once. */
  generatedAdminPassword?: string;
}

/** The demo accounts' plan, for a year from seeding: no app or menu limit, so a newcomer (and the browser tests) build freely. */
export const DEMO_PLAN = 'PREMIUM';

/**
 * Seeds an empty database: a super admin, the featured templates and the shortcode providers and catalogue; unless
 * disabled, a demo user with a deployed sample app, a demo merchant, and a demo bot builder with a deployed sample
 * bot, all on DEMO_PLAN.
 */
export async function seedDatabase(db: Db, options: SeedOptions): Promise<SeedResult> {
  // In one transaction under a lock: of processes starting at once on an empty database, one seeds it and the others
  // then find it seeded (not a second super admin's unique email failing their start); a seed cut short leaves nothing.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    return seedEmpty(tx, options);
  });
}

async function seedEmpty(db: Db, options: SeedOptions): Promise<SeedResult> {
  const [{ value }] = (await db.select({ value: count() }).from(users)) as [{ value: number }];
  if (value > 0) return { seeded: false };

  const generatedAdminPassword = options.adminPassword ? undefined : randomBytes(12).toString('base64url');
  const admin = await createUser(db, {
    fullName: 'Super Admin',
    email: options.adminEmail,
    password: options.adminPassword ?? generatedAdminPassword!,
    userType: 'internal_admin',
    roles: ['ADMIN', 'super_admin'],
  });

  await seedFeaturedTemplates(db, admin.id, options.sandboxOrigin);
  await seedShortcodeCatalogue(db);

  if (options.demo) {
    const demo = await createUser(db, { ...DEMO_USER, mobileNumber: '233241234567', companyName: 'Mensah Ventures' });
    await applyPlanPeriod(db, demo.id, DEMO_PLAN, 12, new Date());
    const airtime = getFeaturedTemplates(options.sandboxOrigin)[0]!;
    await insertAppFromDefinition(db, airtime, { ownerId: demo.id, isTemplate: false, appName: 'Mensah Airtime', deploy: true });
    const [merchant] = await db
      .insert(merchants)
      .values({
        fullName: 'Kofi Boateng',
        email: 'kofi@boateng.example',
        mobileNumber: '233201112223',
        companyName: 'Boateng Retail',
        businessCategory: 'retail',
      })
      .returning();
    const merchantUser = await createUser(db, {
      ...DEMO_MERCHANT_USER,
      mobileNumber: '233201112223',
      companyName: 'Boateng Retail',
      userType: 'merchant',
      roles: ['MERCHANT'],
      merchantId: merchant!.id,
    });
    await applyPlanPeriod(db, merchantUser.id, DEMO_PLAN, 12, new Date());
    const botUser = await createUser(db, {
      ...DEMO_BOT_USER,
      mobileNumber: '233245556667',
      companyName: 'Mensah Ventures',
      roles: ['CHATBOT'],
    });
    await applyPlanPeriod(db, botUser.id, DEMO_PLAN, 12, new Date());
    await insertAppFromDefinition(db, getDemoBot(), { ownerId: botUser.id, isTemplate: false, deploy: true, channel: 'whatsapp' });
  }
  return { seeded: true, adminEmail: options.adminEmail, generatedAdminPassword };
}
