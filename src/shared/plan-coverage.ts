import type { PlanFeature } from './api/plans.js';

type Covered = Pick<PlanFeature, 'key' | 'kind' | 'limit'>;

/**
 * Whether a plan already held gives everything `wanted` gives: each of its features, with a
 * metered limit at least as high (null is unlimited). A plan without features is covered by
 * nothing: there is no telling what it adds.
 */
export function planCovers(held: readonly Covered[], wanted: readonly Covered[]): boolean {
  if (wanted.length === 0) return false;
  const byKey = new Map(held.map((feature) => [feature.key, feature]));
  return wanted.every((feature) => {
    const mine = byKey.get(feature.key);
    if (!mine) return false;
    if (feature.kind !== 'metered') return true;
    if (mine.limit === null) return true;
    return feature.limit !== null && mine.limit >= feature.limit;
  });
}

/** The lifetime license a purchase would duplicate: the first held one whose plan covers `wanted`. */
export function coveringLifetime<T extends { features: readonly Covered[] }>(
  lifetimes: readonly T[],
  wanted: readonly Covered[],
): T | undefined {
  return lifetimes.find((held) => planCovers(held.features, wanted));
}
