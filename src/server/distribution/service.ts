import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { ReleaseRow } from '../platform/db/tables.js';
import { HttpError, notFound } from '../platform/http-error.js';
import { releaseFilePath } from './releases.js';
import { findRelease } from './repository.js';
import type { DownloadLinks } from './signed-links.js';

export interface DownloadsServiceDeps {
  db: Db;
  clock: Clock;
  links: DownloadLinks;
  releasesDir: string;
}

const expired = () =>
  new HttpError(
    410,
    'download_link_expired',
    'This download link has expired. Start the download again from your license page.',
  );

/** What a signed download link grants: the release and where its file lies. */
export function createDownloadsService({ db, clock, links, releasesDir }: DownloadsServiceDeps) {
  return {
    /** The release behind a genuine, unexpired link; 410 for an expired or forged one, or a yanked release. */
    async release(token: string): Promise<{ release: ReleaseRow; path: string }> {
      const grant = links.verify(token, Math.floor(clock.now().getTime() / 1000));
      if (!grant) throw expired();
      const release = await findRelease(db, grant.releaseId);
      if (!release) throw notFound('release_not_found', 'This release is no longer available');
      if (release.yanked_at !== null) {
        throw new HttpError(
          410,
          'release_yanked',
          `Version ${release.version} was withdrawn. Start the download again from your license page for the current one.`,
        );
      }
      return { release, path: releaseFilePath(releasesDir, release) };
    },
  };
}

export type DownloadsService = ReturnType<typeof createDownloadsService>;
