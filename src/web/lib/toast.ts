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

/**
 * True when the message says no more than the title: the same words ("Provider registered" twice, whatever
 * the case and punctuation), or the title's words again with a noun in front ("Saved" over "Menu saved").
 * Such a toast shows the message alone.
 */
export function isRedundantTitle(title: ReactNode, message: ReactNode): boolean {
  if (isValidElement(title) || isValidElement(message)) return false;
  const t = toComparableText(title);
  const m = toComparableText(message);
  if (!t || !m) return false;
  return m === t || (m.endsWith(` ${t}`) && m.split(' ').length <= t.split(' ').length + 2);
}

/**
 * The console's one way to show a toast (scripts/check-imports.mjs refuses `notifications` anywhere else): a
 * title that the message repeats is dropped, so a server reply that says what the title says ("Provider
 * registered") shows once.
 *
 * @example showToast({ color: 'teal', title: 'Saved', message: reply.message || 'Menu saved' })
 */
export function showToast(data: NotificationData): string {
  const { title, message, ...rest } = data;
  if (title !== undefined && isRedundantTitle(title, message)) return notifications.show({ ...rest, message });
  return notifications.show(data);
}
