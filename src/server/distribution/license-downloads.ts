import type { DownloadPlatform } from '../../shared/api/licenses.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { UserRow } from '../platform/db/tables.js';
import { notFound } from '../platform/http-error.js';
import type { DownloadPermission } from '../licensing/index.js';
import { findLicenseForUpdates, latestReleases } from './repository.js';
import { DOWNLOAD_LINK_TTL_SECONDS, type DownloadLinks } from './signed-links.js';

export interface LicenseDownloadsDeps {
  db: Db;
  clock: Clock;
  downloadLinks: DownloadLinks;
  /** Absolute URL prefix of the API (`${PUBLIC_URL}/api/v1`) for download links. */
  apiUrl: string;
  /** Licensing's answer to whether the user may download with the license (refuses otherwise). */
  mayDownload: DownloadPermission;
}

/** The installers a license holder may download, behind short-lived signed links. */
export function createLicenseDownloadsService({
  db,
  clock,
  downloadLinks,
  apiUrl,
  mayDownload,
}: LicenseDownloadsDeps) {
  return {
    /**
     * Signed links to the newest installers, for holders of an active license; for a perpetual
     * license, the newest published inside its update window.
     */
    async download(user: UserRow, id: string, platform: DownloadPlatform | undefined) {
      const licenseId = await mayDownload(user, id);
      // A perpetual license downloads the newest releases inside its update window.
      const license = await findLicenseForUpdates(db, { id: licenseId });
      const releases = await latestReleases(db, platform, license?.updates_until);
      if (releases.length === 0 && license?.updates_until) {
        throw notFound(
          'release_not_found',
          "No release was published inside your license's update window. Renew updates to download the current version.",
        );
      }
      if (releases.length === 0) {
        throw notFound(
          'release_not_found',
          platform
            ? `No desktop release has been published for ${platform} yet`
            : 'No desktop release has been published yet',
        );
      }
      const expiresAt = Math.floor(clock.now().getTime() / 1000) + DOWNLOAD_LINK_TTL_SECONDS;
      return {
        license_id: licenseId,
        releases: releases.map((release) => ({
          platform: release.platform,
          version: release.version,
          file_name: release.file_name,
          size_bytes: release.size_bytes,
          sha256: release.sha256,
          published_at: release.published_at,
          url: `${apiUrl}/downloads/${downloadLinks.sign({ releaseId: release.id, userId: user.id, expiresAt })}`,
          url_expires_at: new Date(expiresAt * 1000).toISOString(),
        })),
      };
    },
  };
}

export type LicenseDownloadsService = ReturnType<typeof createLicenseDownloadsService>;
