import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DownloadPlatform } from '../../shared/api/licenses.js';
import type { ReleaseChannel } from '../../shared/api/distribution.js';
import type { DbOrTransaction } from '../platform/db/database.js';
import type { ReleaseRow } from '../platform/db/tables.js';
import { insertRelease } from './repository.js';

/** The SHA-256 (hex, what the portal's downloads show) and SHA-512 (base64, what electron-updater checks) in one read. */
async function digestsOfFile(path: string): Promise<{ sha256: string; sha512: string }> {
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  await pipeline(createReadStream(path), async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      sha256.update(chunk);
      sha512.update(chunk);
    }
    yield* [];
  });
  return { sha256: sha256.digest('hex'), sha512: sha512.digest('base64') };
}

export interface PublishInput {
  platform: DownloadPlatform;
  version: string;
  file: string;
  /** Stable unless given. */
  channel?: ReleaseChannel;
  /** Share of machines (0–100) the update is offered to at first; all unless given. */
  rolloutPercent?: number;
  releaseNotes?: string;
  now: Date;
}

/**
 * Copies an installer into the releases folder and records it (`cli publish-release`). The file
 * is stored under `<platform>/<version>/<name>` and checksummed after the copy, so the recorded
 * checksums (SHA-256 for downloads, SHA-512 for updates) are those of the bytes the server will
 * send. A version already published is refused (EEXIST or a unique violation) and its file left
 * untouched.
 */
export async function publishRelease(
  db: DbOrTransaction,
  releasesDir: string,
  input: PublishInput,
): Promise<ReleaseRow> {
  const fileName = basename(input.file);
  const directory = join(releasesDir, input.platform, input.version);
  await mkdir(directory, { recursive: true });
  const target = join(directory, fileName);
  const draft = `${target}.${randomUUID()}.part`;
  await copyFile(input.file, draft);
  try {
    const [{ size }, { sha256, sha512 }] = await Promise.all([stat(draft), digestsOfFile(draft)]);
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
      channel: input.channel ?? 'stable',
      sha512,
      rollout_percent: input.rolloutPercent ?? 100,
      paused_at: null,
      yanked_at: null,
      release_notes: input.releaseNotes ?? '',
      checks: 0,
      downloads: 0,
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
