import type { UpdateCheckRequest, UpdateCheckResponse } from '../../shared/api/distribution.js';
import { normalizeLicenseKey } from '../../shared/license-key.js';
import { UPDATE_FEED_PREFIX } from '../../shared/routes.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { HttpError, notFound } from '../platform/http-error.js';
import { type Admission, type UpdateAdmission, invalidKey, windowAnswer } from '../licensing/index.js';
import { channelFileYaml, parseChannelFile } from './channel-files.js';
import { releaseFilePath } from './releases.js';
import {
  countReleaseEvent,
  findRelease,
  findReleaseByVersion,
  platformReleases,
  recordInstall,
} from './repository.js';
import { chooseOffer } from './rollout.js';
import { UPDATE_FEED_TTL_SECONDS, type UpdateGrant, type UpdateLinks } from './update-links.js';
import { type CoveredVersionsOf, insideWindow } from './update-windows.js';

export interface UpdateFeedDeps {
  db: Db;
  clock: Clock;
  links: UpdateLinks;
  releasesDir: string;
  /** Absolute URL prefix of the API (`${PUBLIC_URL}/api/v1`) for feed URLs. */
  apiUrl: string;
  /** The versions an ended update window covers, for the check's answer. */
  coveredVersions: CoveredVersionsOf;
  /** Licensing's acceptance of a machine: the license check's own rule and refusals. */
  admission: UpdateAdmission;
}

const feedExpired = () =>
  new HttpError(
    410,
    'update_feed_expired',
    'This update feed link has expired or is not genuine. Check for updates again to get a new one.',
  );

const unknownLicense = () =>
  new HttpError(403, 'license_not_found', 'Updates need a valid license: no license has this key.');

/**
 * Updates through electron-updater's generic provider. A machine's check (key, hardware id, the
 * version it runs) is counted and answered with a feed URL carrying a signed token; the channel
 * files and the files they name are served under it, after the license and machine are checked
 * again, so a license revoked or a machine deactivated since gets nothing more.
 */
export function createUpdateFeedService({
  db,
  clock,
  links,
  releasesDir,
  apiUrl,
  coveredVersions,
  admission,
}: UpdateFeedDeps) {
  /**
   * The machine behind a feed token, still accepted by the license check (its activation, or the
   * floating seat it still holds); 410 for an expired or forged token.
   */
  async function machineOf(token: string): Promise<Admission & { grant: UpdateGrant }> {
    const grant = links.verify(token, Math.floor(clock.now().getTime() / 1000));
    if (!grant) throw feedExpired();
    const admitted = await admission.readmit(grant.machine);
    if (!admitted) throw unknownLicense();
    return { grant, ...admitted };
  }

  /** What a perpetual license's answer adds: its window and, once it ended, what it covers (as its check says). */
  async function windowOf(updatesUntil: string | null, now: Date) {
    if (updatesUntil === null) return {};
    return (await windowAnswer(updatesUntil, undefined, now, coveredVersions)).fields;
  }

  return {
    async check(body: UpdateCheckRequest): Promise<UpdateCheckResponse> {
      const key = normalizeLicenseKey(body.license_key);
      if (!key) throw invalidKey();
      const now = clock.now();
      // Only a machine the license check accepts gets updates, refused as the check refuses it
      // (403 with the reason and what to do), so the app shows the same message in both places.
      const admitted = await admission.admit(key, body);
      if (!admitted) throw unknownLicense();
      const { license, machine } = admitted;
      const current =
        body.current_version === undefined
          ? undefined
          : await findReleaseByVersion(db, body.platform, body.current_version);
      if (current) {
        await db.transaction().execute(async (trx) => {
          await countReleaseEvent(trx, current.id, 'checks');
          // Installs count activated machines; a floating seat's machine has no activation to count.
          if (machine.kind === 'activation')
            await recordInstall(trx, current.id, machine.id, now.toISOString());
        });
      }
      const expiresAt = Math.floor(now.getTime() / 1000) + UPDATE_FEED_TTL_SECONDS;
      const token = links.sign({
        machine: { kind: machine.kind, id: machine.id },
        currentReleaseId: current?.id ?? null,
        expiresAt,
      });
      return {
        feed_url: `${apiUrl}${UPDATE_FEED_PREFIX}${token}/`,
        feed_expires_at: new Date(expiresAt * 1000).toISOString(),
        ...(await windowOf(license.updates_until, now)),
      };
    },

    /** The YAML of a channel file (`latest.yml`, `beta-mac.yml`…) for the machine behind the token. */
    async channelFile(token: string, name: string): Promise<string> {
      const { grant, machine, license } = await machineOf(token);
      const wanted = parseChannelFile(name);
      if (!wanted) {
        throw notFound(
          'update_channel_not_found',
          `There is no update channel file ${name}: the feed serves latest.yml, latest-mac.yml, ` +
            'latest-linux.yml and their beta-… counterparts',
        );
      }
      const releases = await platformReleases(db, wanted.platform);
      const offer = chooseOffer({
        // A perpetual license is offered only what was published inside its update window.
        releases: releases.filter((release) => insideWindow(release, license.updates_until)),
        channel: wanted.channel,
        hardwareId: machine.hardwareId,
        current: releases.find((release) => release.id === grant.currentReleaseId),
      });
      if (!offer?.sha512) {
        throw notFound(
          'no_update_available',
          `No ${wanted.channel} release for ${wanted.platform} is available to this machine yet`,
        );
      }
      return channelFileYaml({ ...offer, sha512: offer.sha512 });
    },

    /**
     * Where a release's file lies, for a download through the feed, counted. A yanked release is
     * gone (410); a paused one or one outside the machine's rollout is still served, since the feed
     * decides what is offered and a download started before a pause may finish.
     */
    async file(token: string, releaseId: string, fileName: string): Promise<string> {
      const { license } = await machineOf(token);
      const release = await findRelease(db, releaseId);
      if (!release || release.file_name !== fileName) {
        throw notFound('release_not_found', 'This release is not available');
      }
      if (!insideWindow(release, license.updates_until)) {
        throw new HttpError(
          403,
          'update_window_ended',
          `Version ${release.version} was released after your license's updates ended. Renew updates to get it.`,
        );
      }
      if (release.yanked_at !== null) {
        throw new HttpError(
          410,
          'release_yanked',
          `Version ${release.version} was withdrawn and can no longer be downloaded`,
        );
      }
      await countReleaseEvent(db, release.id, 'downloads');
      return releaseFilePath(releasesDir, release);
    },
  };
}

export type UpdateFeedService = ReturnType<typeof createUpdateFeedService>;
