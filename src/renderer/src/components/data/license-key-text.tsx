import { Fragment } from 'react';

/**
 * A license key (or its masked form) that wraps only between its dash-separated groups, never inside
 * one: each group with its dash is unbreakable, with a break opportunity after the dash. Selecting
 * and copying the text gives the key as written.
 */
export function LicenseKeyText({ value }: { value: string }) {
  const groups = value.split('-');
  return (
    <>
      {groups.map((group, index) => (
        // Groups repeat in a masked key ("•••••"): the position is the identity.
        <Fragment key={index}>
          <span style={{ whiteSpace: 'nowrap' }}>{index < groups.length - 1 ? `${group}-` : group}</span>
          {index < groups.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
