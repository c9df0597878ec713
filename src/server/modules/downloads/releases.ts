import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DownloadPlatform } from '../../../shared/api/licenses.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { ReleaseRow } from '../../db/tables.js';
import { insertRelease } from './repository.js';

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Copies an installer into the releases folder and records it (`cli publish-release`). The file
 * is stored under `<platform>/<version>/<name>` and checksummed after the copy, so the recorded
 * checksum is that of the bytes the server will send. A version already published is refused
 * (EEXIST or a unique violation) and its file left untouched.
 */
export async function publishRelease(
  db: DbOrTransaction,
  releasesDir: string,
  input: { platform: DownloadPlatform; version: string; file: string; now: Date },
): Promise<ReleaseRow> {
  const fileName = basename(input.file);
  const directory = join(releasesDir, input.platform, input.version);
  await mkdir(directory, { recursive: true });
  const target = join(directory, fileName);
  const draft = `${target}.${randomUUID()}.part`;
  await copyFile(input.file, draft);
  try {
    const [{ size }, sha256] = await Promise.all([stat(draft), sha256OfFile(draft)]);
    // Linking fails when the file exists: a published installer is never replaced under its checksum.
    await link(draft, target);
    const row: ReleaseRow = {
      id: randomUUID(),
      platform: input.platform,
      version: input.version,
      file_name: fileName,
      size_bytes: size,
      sha256,
      published_at: input.now.toISOString(),
    };
    try {
      await insertRelease(db, row);
    } catch (error) {
      await rm(target, { force: true });
      throw error;
    }
    return row;
  } finally {
    await rm(draft, { force: true });
  }
}

export const releaseFilePath = (releasesDir: string, release: ReleaseRow) =>
  join(releasesDir, release.platform, release.version, release.file_name);
