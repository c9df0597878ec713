import { dump } from 'js-yaml';
import type { DownloadPlatform } from '../../shared/api/licenses.js';
import { CHANNEL_FILE_PREFIX, RELEASE_CHANNELS, type ReleaseChannel } from '../../shared/api/distribution.js';
import type { ReleaseRow } from '../platform/db/tables.js';

/** electron-builder's platform suffixes: Windows has none, for historical reasons. */
const PLATFORM_SUFFIX: Record<DownloadPlatform, string> = { windows: '', macos: '-mac', linux: '-linux' };

/** The channel and platform a channel file name (`latest.yml`, `beta-linux.yml`…) stands for. */
export function parseChannelFile(
  name: string,
): { channel: ReleaseChannel; platform: DownloadPlatform } | undefined {
  for (const channel of RELEASE_CHANNELS) {
    for (const [platform, suffix] of Object.entries(PLATFORM_SUFFIX) as [DownloadPlatform, string][]) {
      if (name === `${CHANNEL_FILE_PREFIX[channel]}${suffix}.yml`) return { channel, platform };
    }
  }
  return undefined;
}

/** The file's URL relative to the feed base, where the feed's file route serves it. */
export const releaseFileUrl = (release: ReleaseRow) =>
  `files/${release.id}/${encodeURIComponent(release.file_name)}`;

/**
 * A channel file as electron-builder writes it for the generic provider: the version, its one file
 * with SHA-512 and size (and the older `path`/`sha512` fields some updaters still read), the
 * release date and the notes. The updater downloads `url` relative to the feed URL and refuses the
 * file unless its SHA-512 matches.
 */
export function channelFileYaml(release: ReleaseRow & { sha512: string }): string {
  const url = releaseFileUrl(release);
  return dump(
    {
      version: release.version,
      files: [{ url, sha512: release.sha512, size: release.size_bytes }],
      path: url,
      sha512: release.sha512,
      releaseDate: release.published_at,
      ...(release.release_notes ? { releaseNotes: release.release_notes } : {}),
    },
    { lineWidth: -1 },
  );
}
