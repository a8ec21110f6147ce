import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * A 32-byte key kept in `DATA_DIR/<fileName>`, created (mode 0600) on first use: the default of a setting such as
 * TWO_FACTOR_KEY or SIGN_IN_SECRET when the operator leaves it unset. Every process of one host (and every restart)
 * reads the same file; processes on several hosts must share the setting instead (docs/operations.md).
 */
export function loadKeyFile(dataDir: string, fileName: string, setting: string): Buffer {
  const path = resolve(dataDir, fileName);
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
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${path} must hold 64 hex characters (or set ${setting})`);
  return Buffer.from(hex, 'hex');
}
