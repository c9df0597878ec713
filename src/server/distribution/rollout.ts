import { createHash } from 'node:crypto';
import semver from 'semver';
import type { ReleaseChannel } from '../../shared/api/distribution.js';
import type { ReleaseRow } from '../platform/db/tables.js';

/**
 * A machine's place (0–99) in a release's rollout: from the hash of the release and the hardware
 * id, so the same machine gets the same answer at every check (it never flips in and out), and
 * each release draws its own sample of machines.
 */
export function rolloutBucket(releaseId: string, hardwareId: string): number {
  const digest = createHash('sha256').update(`${releaseId}\n${hardwareId}`).digest();
  return digest.readUInt32BE(0) % 100;
}

export const inRollout = (release: ReleaseRow, hardwareId: string) =>
  rolloutBucket(release.id, hardwareId) < release.rollout_percent;

/** Beta machines are offered stable releases as well, whichever is newer (as electron-builder's channels). */
const channelsFor = (channel: ReleaseChannel): ReleaseRow['channel'][] =>
  channel === 'beta' ? ['beta', 'stable'] : ['stable'];

const newest = (releases: ReleaseRow[]) =>
  releases.reduce<ReleaseRow | undefined>(
    (best, release) => (best && semver.gte(best.version, release.version) ? best : release),
    undefined,
  );

export interface OfferInput {
  /** Every release of the platform the channel file is for. */
  releases: ReleaseRow[];
  channel: ReleaseChannel;
  hardwareId: string;
  /** The release the machine runs, when it is one of `releases`. */
  current: ReleaseRow | undefined;
}

/**
 * The release a machine is offered, or undefined for none:
 * - the newest release of its channels that is neither yanked nor paused and whose rollout takes
 *   the machine in;
 * - but never below the release the machine runs unless that one was yanked: a machine on a paused
 *   release, or on a beta after moving to stable, is offered what it runs;
 * - a machine on a yanked release is offered the newest good release it may have, where releases
 *   below the yanked one count whatever their rollout (they were offered before it): the previous
 *   good one, unless a newer one already reached the machine.
 * Releases without a SHA-512 (published before updates) or a semantic version cannot be offered.
 */
export function chooseOffer({ releases, channel, hardwareId, current }: OfferInput): ReleaseRow | undefined {
  const channels = channelsFor(channel);
  const updatable = releases.filter(
    (release) => release.sha512 !== null && semver.valid(release.version) !== null,
  );
  const good = updatable.filter((release) => release.yanked_at === null && release.paused_at === null);
  const offer = newest(
    good.filter((release) => channels.includes(release.channel) && inRollout(release, hardwareId)),
  );
  if (!current || semver.valid(current.version) === null) return offer;
  if (current.yanked_at === null) {
    if (offer && semver.gt(offer.version, current.version)) return offer;
    // What it runs, or nothing: the app accepts lower versions (to leave a yanked one), so a
    // lower offer here would take it back for no reason.
    return current.sha512 !== null ? current : undefined;
  }
  // Back from a yanked release: releases below it were offered before it, so their rollout no
  // longer holds the machine back.
  return newest(
    good.filter(
      (release) =>
        channels.includes(release.channel) &&
        (inRollout(release, hardwareId) || semver.lt(release.version, current.version)),
    ),
  );
}
