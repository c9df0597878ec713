import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** portal-backup-20261204T205000Z.tar.gz, or .tar.gz.enc when encrypted: sorted by name, sorted by time. */
const ARCHIVE_NAME = /^portal-backup-(\d{8}T\d{6}Z)\.tar\.gz(?:\.enc)?$/;

export function archiveName(takenAt: Date, encrypted: boolean): string {
  const stamp = takenAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `portal-backup-${stamp}.tar.gz${encrypted ? '.enc' : ''}`;
}

function takenAtOf(stamp: string): Date {
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(stamp) ?? [];
  return new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`);
}

export interface ArchiveInFolder {
  name: string;
  takenAt: Date;
}

/** The archives a folder holds under the names {@link archiveName} gives, oldest first; other files are not looked at. */
export async function archivesIn(folder: string): Promise<ArchiveInFolder[]> {
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return names
    .flatMap((name) => {
      const stamp = ARCHIVE_NAME.exec(name)?.[1];
      return stamp ? [{ name, takenAt: takenAtOf(stamp) }] : [];
    })
    .sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime() || a.name.localeCompare(b.name));
}

/** Deletes the oldest archives beyond the newest `keep`; answers the names deleted. */
export async function pruneArchives(folder: string, keep: number): Promise<string[]> {
  const archives = await archivesIn(folder);
  const surplus = archives.slice(0, Math.max(0, archives.length - keep)).map((archive) => archive.name);
  for (const name of surplus) await rm(join(folder, name), { force: true });
  return surplus;
}
