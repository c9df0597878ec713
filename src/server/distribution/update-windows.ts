import semver from 'semver';
import type { DbOrTransaction } from '../platform/db/database.js';
import { stableReleaseVersions } from './repository.js';

/** What an ended update window covers: the newest version released inside it, and the first after. */
export interface CoveredVersions {
  /** The newest stable version published before the window's end; null when none was. */
  covered: string | null;
  /** The oldest stable version published since, newer than `covered`; null when none is yet. */
  next: string | null;
}

/**
 * The versions a perpetual license whose updates run until `until` covers, over every platform's
 * stable releases that were not withdrawn (a version number is one product across platforms).
 * Licensing's license check asks it, supplied at composition, since releases are distribution's.
 */
export function createCoveredVersions(db: DbOrTransaction) {
  return async (until: string): Promise<CoveredVersions> => {
    const releases = (await stableReleaseVersions(db)).filter(
      (release) => semver.valid(release.version) !== null,
    );
    const inside = releases.filter((release) => release.published_at < until).map((r) => r.version);
    const covered = inside.length === 0 ? null : semver.rsort(inside)[0]!;
    const after = releases
      .filter((release) => release.published_at >= until)
      .map((release) => release.version)
      .filter((version) => covered === null || semver.gt(version, covered));
    return { covered, next: after.length === 0 ? null : semver.sort(after)[0]! };
  };
}

export type CoveredVersionsOf = ReturnType<typeof createCoveredVersions>;

/** Whether a release lies inside a license's update window (every release does without one). */
export const insideWindow = (release: { published_at: string }, updatesUntil: string | null): boolean =>
  updatesUntil === null || release.published_at < updatesUntil;
