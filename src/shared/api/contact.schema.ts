import { z } from 'zod';

/** A contact message has at most 500 characters. */
export const CONTACT_MESSAGE_MAX = 500;

/** The contact form's rules and messages, used by the form and by POST /api/contactus. */
export const contactBodySchema = z.object({
  subject: z.string().trim().min(1, 'Subject is required').max(200, 'Subject is too long'),
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .max(254, 'Invalid email')
    .refine((v) => v.includes('@'), 'Invalid email'),
  mobile: z.string().trim().max(32, 'Mobile number is too long').optional().default(''),
  message: z
    .string()
    .trim()
    .min(1, 'Message is required')
    .max(CONTACT_MESSAGE_MAX, `Message cannot be longer than ${CONTACT_MESSAGE_MAX} characters`),
});
export type ContactBody = z.infer<typeof contactBodySchema>;

export const contactRequestSchema = z.object({
  id: z.string(),
  subject: z.string(),
  email: z.string(),
  mobile: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
