/**
 * The fields of `after` that differ from `before`: an edit sends only those, so it never rewrites
 * what someone else changed meanwhile.
 */
export function changedFields<Body extends object>(before: Body, after: Body): Partial<Body> {
  const changes: Partial<Body> = {};
  for (const field of Object.keys(after) as (keyof Body)[])
    if (after[field] !== before[field]) changes[field] = after[field];
  return changes;
}
