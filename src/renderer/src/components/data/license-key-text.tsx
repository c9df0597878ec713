import { Fragment } from 'react';

/**
 * A license key (or its masked form) that wraps only after a dash, never inside a group. The
 * break opportunities are `<wbr>`s after each dash (the line-breaking rules alone give none before
 * a group that starts with a digit), and breaking anywhere else is turned off. The groups stay
 * text of one element, so the key is found, selected and copied as written. With `noWrap` the
 * key stays on one line (Chromium breaks at a `<wbr>` even in a `nowrap` parent).
 */
export function LicenseKeyText({ value, noWrap = false }: { value: string; noWrap?: boolean }) {
  if (noWrap) return <span style={{ whiteSpace: 'nowrap' }}>{value}</span>;
  const groups = value.split('-');
  return (
    <span style={{ wordBreak: 'keep-all', overflowWrap: 'normal' }}>
      {groups.map((group, index) => (
        <Fragment key={index}>
          {index < groups.length - 1 ? `${group}-` : group}
          {index < groups.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </span>
  );
}
