import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create as createTar } from 'tar';

/** A file of an account's data export: its path in the archive and its bytes. */
export interface ExportFile {
  name: string;
  bytes: Uint8Array;
}

/** A JSON file of the export, indented for a person to read. */
export const jsonFile = (name: string, value: unknown): ExportFile => ({
  name,
  bytes: Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8'),
});

/**
 * The export's tar.gz (node-tar, as the backups): the files are written to a private temporary
 * folder, packed under one top folder, and the folder removed whatever happens.
 */
export async function packArchive(folder: string, files: readonly ExportFile[]): Promise<Buffer> {
  const work = await mkdtemp(join(tmpdir(), 'data-export-'));
  try {
    const names: string[] = [];
    for (const file of files) {
      const path = join(work, folder, file.name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.bytes, { mode: 0o600 });
      names.push(join(folder, file.name));
    }
    const target = join(work, 'archive.tar.gz');
    await createTar({ gzip: true, cwd: work, file: target, portable: true }, names);
    return await readFile(target);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
