/**
 * What an SMS may name as its sender: a shortcode or a number (3 to 15 digits, + allowed), or a name of at most 11
 * letters and digits (GSM's alphanumeric sender id; spaces, dots, &, _ and - inside); empty is the provider
 * account's default. The rule the SMS service checks a message's sender with (src/server/features/sms/sms.service.ts).
 */
export const SMS_SENDER_MESSAGE = 'The SMS sender must be a shortcode, a number, or a name of at most 11 letters and digits';

export function isSmsSender(sender: string): boolean {
  const value = sender.trim();
  return value === '' || /^\+?\d{3,15}$/.test(value) || /^[A-Za-z0-9][A-Za-z0-9 .&_-]{0,10}$/.test(value);
}
