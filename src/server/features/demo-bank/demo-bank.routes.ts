import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const NAMES = ['Ama', 'Kofi', 'Wanjiru', 'Chinedu', 'Thandiwe', 'Otieno', 'Aisha', 'Kwame', 'Nomvula', 'Emeka'];

const accountSchema = z.object({ accountNumber: z.string(), name: z.string(), balance: z.string(), currency: z.string() });

/**
 * A tiny demo bank, so the Balance Enquiry template calls a real REST API on any install. Answers the same
 * account the same way: the number decides the holder and the balance.
 */
export function getDemoBankAccount(accountNumber: string) {
  const n = Number(accountNumber);
  return {
    accountNumber,
    name: NAMES[n % NAMES.length]!,
    balance: (((n * 7919) % 5_000_000) / 100).toFixed(2),
    currency: 'KES',
  };
}

const DEMO_BANK_PATH = /^\/api\/sandbox\/accounts\/[0-9]{1,12}$/;

/**
 * The only paths of this server a restapi action may call (runners.ts): the demo bank's. Everything else here
 * (gateway URLs, the emulator, the console API, webhooks) is refused to actions and webhooks, so a hop cannot
 * start another. A pathname as WHATWG URL leaves it (dot segments resolved); percent-encoded text never matches.
 */
export function isDemoBankPath(pathname: string): boolean {
  return DEMO_BANK_PATH.test(pathname);
}

export function registerDemoBankRoutes(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().get('/api/sandbox/accounts/:accountNumber', {
    schema: {
      tags: ['sandbox'],
      summary: 'Demo bank account used by the Balance Enquiry template',
      params: z.object({ accountNumber: z.string().regex(/^[0-9]{6}$/, 'Account numbers have 6 digits') }),
      response: { 200: accountSchema },
    },
    handler: async (req) => getDemoBankAccount(req.params.accountNumber),
  });
}
