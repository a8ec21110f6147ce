import type { Config } from '../../config';
import { loadKeyFile } from '../../key-file';

export const TWO_FACTOR_KEY_FILE = 'two-factor.key';

/**
 * The 32-byte key two-factor secrets are sealed with: TWO_FACTOR_KEY, else `DATA_DIR/two-factor.key`. The file suits
 * one host; several console hosts must share TWO_FACTOR_KEY, or each would seal with its own key
 * (docs/operations.md). Losing the key loses every enrolment (an admin resets them).
 */
export function loadTwoFactorKey(config: Config): Buffer {
  if (config.TWO_FACTOR_KEY) return Buffer.from(config.TWO_FACTOR_KEY, 'hex');
  return loadKeyFile(config.DATA_DIR, TWO_FACTOR_KEY_FILE, 'TWO_FACTOR_KEY');
}
