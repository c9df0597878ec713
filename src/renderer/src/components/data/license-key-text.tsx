/**
 * A license key (or its masked form) that wraps only between its dash-separated groups, never inside
 * one: each group with its dash is an unbreakable inline block, and a line may break between blocks
 * (not inside a parent that is `nowrap`, which keeps the key on one line). Selecting and copying the
 * text gives the key as written: no break character is added.
 */
export function LicenseKeyText({ value }: { value: string }) {
  const groups = value.split('-');
  return (
    <>
      {groups.map((group, index) => (
        // Groups repeat in a masked key ("•••••"): the position is the identity.
        <span key={index} style={{ display: 'inline-block', whiteSpace: 'nowrap' }}>
          {index < groups.length - 1 ? `${group}-` : group}
        </span>
      ))}
    </>
  );
}
