/**
 * A license key (or its masked form) that wraps only after a dash, never inside a group: one text
 * node (searched, selected and copied as written) whose break opportunities are the line-breaking
 * rules' own, after hyphens, with the "break anywhere" of a narrow container turned off for it.
 * A parent that is `nowrap` keeps the key on one line.
 */
export function LicenseKeyText({ value }: { value: string }) {
  return <span style={{ wordBreak: 'normal', overflowWrap: 'normal' }}>{value}</span>;
}
