import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { create as createTar, Parser, type ReadEntry } from 'tar';
import { decryptingStream, encryptingStream, isEncryptedArchive } from './archive-encryption.js';
import { BackupError } from './backup-error.js';
import { type BackupManifest, backupManifestSchema, MANIFEST_NAME } from './backup-manifest.js';

/**
 * The archive: a gzip'd tar of the manifest (first) and the files it lists, optionally encrypted
 * (archive-encryption.ts). Written from a folder holding exactly those files; read back entry by
 * entry, each file's SHA-256 and size compared with the manifest's.
 */
export async function writeArchive(
  folder: string,
  manifest: BackupManifest,
  file: string,
  passphrase: string | undefined,
): Promise<void> {
  await writeFile(join(folder, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  // Files named one by one: no directory entries, and nothing in the folder the manifest does not list.
  const tar = createTar({ gzip: true, cwd: folder, portable: true }, [
    MANIFEST_NAME,
    ...manifest.files.map((entry) => entry.path),
  ]);
  const stages: (Readable | Transform)[] = [tar as unknown as Readable];
  if (passphrase !== undefined) stages.push(encryptingStream(passphrase));
  // The archive holds the signing keys: only the owner may read it.
  await pipeline([...stages, createWriteStream(file, { flags: 'wx', mode: 0o600 })]);
  // On the disk before it is called a backup.
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;

export interface ArchiveReader {
  /** Told the manifest before any file is read; throwing stops the reading. */
  onManifest?(manifest: BackupManifest): void | Promise<void>;
  /** Given each listed file's content to consume; its checksum is compared as it is read. */
  onFile?(path: string, content: Readable): Promise<void>;
}

const firstBytes = async (file: string, count: number): Promise<Buffer> => {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    const { bytesRead } = await handle.read(buffer, 0, count, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
};

const readAll = async (entry: AsyncIterable<unknown>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * Reads an archive through, checking the manifest and every file's checksum; answers the
 * manifest. A wrong passphrase, an archive cut short or damaged, a file missing, changed or not
 * listed: each fails with a {@link BackupError} saying which.
 */
export async function readArchive(
  file: string,
  passphrase: string | undefined,
  reader: ArchiveReader = {},
): Promise<BackupManifest> {
  const encrypted = isEncryptedArchive(await firstBytes(file, 16));
  if (encrypted && passphrase === undefined)
    throw new BackupError('The archive is encrypted: give its passphrase with --passphrase-env <VARIABLE>.');
  let manifest: BackupManifest | undefined;
  const expected = new Map<string, { bytes: number; sha256: string }>();
  let failure: unknown;
  /** The file being read: stopped when the archive breaks off, since its entry would never end. */
  let reading: Transform | undefined;
  const source = createReadStream(file);
  const fail = (error: unknown) => {
    failure ??= error;
    // Nothing after the first problem is worth reading (a restore refused for its database kind
    // would otherwise read an archive of gigabytes through first).
    source.destroy();
  };

  async function onEntry(entry: ReadEntry): Promise<void> {
    const path = entry.path;
    if (!manifest) {
      // A manifest lists files; one of megabytes is not one this server wrote.
      if (path !== MANIFEST_NAME || entry.type !== 'File' || entry.size > MANIFEST_MAX_BYTES)
        throw new BackupError(
          'This is not a backup archive of this server (it does not begin with a manifest).',
        );
      const parsed = backupManifestSchema.safeParse(JSON.parse((await readAll(entry)).toString('utf8')));
      if (!parsed.success)
        throw new BackupError(`The archive's manifest is not valid: ${parsed.error.issues[0]?.message}`);
      manifest = parsed.data;
      for (const listed of manifest.files) expected.set(listed.path, listed);
      await reader.onManifest?.(manifest);
      return;
    }
    const listed = expected.get(path);
    if (!listed || entry.type !== 'File')
      throw new BackupError(`The archive holds ${path}, which its manifest does not list.`);
    expected.delete(path);
    const hash = createHash('sha256');
    let bytes = 0;
    // Hashes what passes on to the reader, so the file is read once.
    const content = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    reading = content;
    const consumed = reader.onFile ? reader.onFile(path, content) : readAll(content).then(() => undefined);
    await Promise.all([pipeline(entry as unknown as Readable, content), consumed]);
    if (bytes !== listed.bytes || hash.digest('hex') !== listed.sha256)
      throw new BackupError(`${path} in the archive does not match its checksum: the archive is damaged.`);
  }

  // One entry after another: the manifest is read before any file, and the parser waits (its
  // entries push back) while a file is being written out.
  let queue = Promise.resolve();
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry) => {
      queue = queue.then(() =>
        failure
          ? void entry.resume()
          : onEntry(entry).catch((error: unknown) => {
              fail(error);
              entry.resume();
            }),
      );
    },
  });
  const stages: (Readable | Transform)[] = [source];
  if (encrypted && passphrase !== undefined) stages.push(decryptingStream(passphrase));
  try {
    await pipeline([...stages, parser as unknown as NodeJS.WritableStream]);
  } catch (error) {
    fail(error);
    reading?.destroy(error as Error);
  }
  await queue;
  if (failure instanceof BackupError) throw failure;
  if (failure)
    throw new BackupError(
      `The archive cannot be read: ${(failure as Error).message}. It is damaged or cut short (copied incompletely?).`,
      { cause: failure },
    );
  if (!manifest) throw new BackupError('The archive is empty or cut short: it holds no manifest.');
  if (expected.size > 0)
    throw new BackupError(
      `The archive is cut short or damaged: ${[...expected.keys()].join(', ')} listed in its manifest ${expected.size === 1 ? 'is' : 'are'} missing.`,
    );
  return manifest;
}
