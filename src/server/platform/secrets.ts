import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from './crypto.js';
import { ConfigError } from './config.js';

/** The least a generated secret file may hold; the same floor as JWT_SECRET. */
const MIN_SECRET_LENGTH = 32;

/**
 * Reads a generated secret from DATA_DIR/keys, creating it on first start so a fresh install
 * needs no configuration. Instances that share a database must share these (or set them by env).
 */
export function loadOrCreateSecret(dataDir: string, name: string): string {
  const directory = join(dataDir, 'keys');
  const file = join(directory, name);
  if (!existsSync(file)) createSecretFile(directory, file);
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    // Secrets are named after the variable that replaces them: jwt-secret, JWT_SECRET.
    const variable = name.toUpperCase().replaceAll('-', '_');
    throw new ConfigError([
      `The generated secret ${file} holds ${secret.length} characters, fewer than ${MIN_SECRET_LENGTH}: ` +
        'the file is empty or cut short (for example by a crash or a full disk at the first start). ' +
        `Delete it to have a new one generated at the next start, or set ${variable}; ` +
        'every instance on the same database must use the same secret.',
    ]);
  }
  return secret;
}

/**
 * Writes the secret in full under a private name, then links it into place: linking fails when
 * the file exists, so an instance starting at the same moment never reads a half-written secret.
 */
function createSecretFile(directory: string, file: string): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomToken(6)}.tmp`;
  writeFileSync(draft, randomToken(48), { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    // Another instance linked its secret first; it is the one everybody reads.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}
