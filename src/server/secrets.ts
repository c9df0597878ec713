import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from './crypto.js';

/**
 * Reads a generated secret from DATA_DIR/keys, creating it on first start so a fresh install
 * needs no configuration. Instances that share a database must share these (or set them by env).
 */
export function loadOrCreateSecret(dataDir: string, name: string): string {
  const directory = join(dataDir, 'keys');
  const file = join(directory, name);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomToken(48), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
