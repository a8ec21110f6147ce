import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Config } from '../../config';

export const TWO_FACTOR_KEY_FILE = 'two-factor.key';

/**
 * The 32-byte key two-factor secrets are sealed with: TWO_FACTOR_KEY, else `DATA_DIR/two-factor.key`, created
 * (mode 0600) on first use. The file suits one host; several console hosts must share TWO_FACTOR_KEY, or each
 * would seal with its own key (docs/operations.md). Losing the key loses every enrolment (an admin resets them).
 */
export function loadTwoFactorKey(config: Config): Buffer {
  if (config.TWO_FACTOR_KEY) return Buffer.from(config.TWO_FACTOR_KEY, 'hex');
  const path = resolve(config.DATA_DIR, TWO_FACTOR_KEY_FILE);
  mkdirSync(dirname(path), { recursive: true });
  // Written whole under a temporary name, then linked: two processes starting together never read half a key,
  // and the second one's link fails (EEXIST) and it reads the first one's.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  try {
    linkSync(temporary, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temporary, { force: true });
  }
  const hex = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${path} must hold 64 hex characters (or set TWO_FACTOR_KEY)`);
  return Buffer.from(hex, 'hex');
}
