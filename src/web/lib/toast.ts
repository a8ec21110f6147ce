import { type NotificationData, notifications } from '@mantine/notifications';
import { type ReactNode, isValidElement } from 'react';

/** Lower case, one space between words, without the punctuation a sentence ends or starts with. */
function toComparableText(value: ReactNode): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  return String(value)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** True when `longer` is `shorter`'s words, or them with at most two words in front ("Menu saved" over "Saved"). */
function isSameOrQualified(longer: string, shorter: string): boolean {
  return longer === shorter || (longer.endsWith(` ${shorter}`) && longer.split(' ').length <= shorter.split(' ').length + 2);
}

/**
 * Which of a toast's title and message says it all when one only repeats the other: 'message' when the message
 * repeats the title ("Provider registered" twice, whatever the case and punctuation, or "Menu saved" under
 * "Saved"), 'title' when the title says the message and more ("Assigned" under "Merchant assigned"); null when
 * both say something.
 */
export function findFullerText(title: ReactNode, message: ReactNode): 'title' | 'message' | null {
  if (isValidElement(title) || isValidElement(message)) return null;
  const t = toComparableText(title);
  const m = toComparableText(message);
  if (!t || !m) return null;
  if (isSameOrQualified(m, t)) return 'message';
  if (isSameOrQualified(t, m)) return 'title';
  return null;
}

/**
 * The console's one way to show a toast (scripts/check-imports.mjs refuses `notifications` anywhere else): when
 * title and message say the same thing the toast shows one line, the fuller of the two, so a server reply that
 * repeats the title ("Provider registered") shows once.
 *
 * @example showToast({ color: 'teal', title: 'Saved', message: reply.message || 'Menu saved' })
 */
export function showToast(data: NotificationData): string {
  const { title, message, ...rest } = data;
  const fuller = title === undefined ? null : findFullerText(title, message);
  if (fuller) return notifications.show({ ...rest, message: fuller === 'message' ? message : title });
  return notifications.show(data);
}
