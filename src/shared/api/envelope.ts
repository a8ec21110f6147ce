import { z } from 'zod';

/** Every response: `{ status, message, data? }` plus the extras a call names (token, uniqueId, redirectUrl...; docs/product.md). */
export const statusSchema = z.enum(['00', '01', '02', '03', '04', '05', '99']);

export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ status: statusSchema, message: z.string(), data });
}

export const messageSchema = z.object({ status: statusSchema, message: z.string() });
export type MessageReply = z.infer<typeof messageSchema>;
