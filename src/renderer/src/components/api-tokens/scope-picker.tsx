import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Checkbox, Table, Text } from '@mantine/core';
import type { ScopeTag } from '../../../../shared/api/api-tokens';

/** What each area's scopes reach, in the words of the portal's screens. */
export const SCOPE_AREA_LABELS: Record<ScopeTag, MessageDescriptor> = {
  licenses: msg`Licenses and machines`,
  licensing: msg`License checks`,
  users: msg`Profile`,
  billing: msg`Billing and invoices`,
  subscriptions: msg`Subscriptions`,
  payments: msg`Payments`,
  plans: msg`Plans`,
  features: msg`Features`,
  support: msg`Support requests`,
  coupons: msg`Coupons`,
  organisations: msg`Organizations and seats`,
  admin: msg`Administration`,
  webhooks: msg`Webhooks`,
  usage: msg`AI usage (your AI backend reports it)`,
};

export interface ScopePickerProps {
  areas: readonly ScopeTag[];
  /** `<area>:read` / `<area>:write`; write implies read, so a written area lists only write. */
  value: readonly string[];
  onChange: (scopes: string[]) => void;
  error?: string | null;
}

/** Read and write per area, as a table of checkboxes a keyboard walks through row by row. */
export function ScopePicker({ areas, value, onChange, error }: ScopePickerProps) {
  const { i18n, t } = useLingui();
  const has = (scope: string) => value.includes(scope);
  const set = (area: ScopeTag, access: 'none' | 'read' | 'write') => {
    const rest = value.filter((scope) => !scope.startsWith(`${area}:`));
    onChange(access === 'none' ? rest : [...rest, `${area}:${access}`]);
  };
  return (
    <div>
      <Table withTableBorder verticalSpacing={6} aria-describedby={error ? 'scope-error' : undefined}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Area</Trans>
            </Table.Th>
            <Table.Th w={72} ta="center">
              <Trans>Read</Trans>
            </Table.Th>
            <Table.Th w={72} ta="center">
              <Trans>Write</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {areas.map((area) => {
            const write = has(`${area}:write`);
            const read = write || has(`${area}:read`);
            const label = i18n._(SCOPE_AREA_LABELS[area]);
            return (
              <Table.Tr key={area}>
                <Table.Td>
                  <Text size="sm">{label}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {area}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    mx="auto"
                    w="fit-content"
                    aria-label={t`${label}: read`}
                    checked={read}
                    disabled={write}
                    onChange={(event) => set(area, event.currentTarget.checked ? 'read' : 'none')}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    mx="auto"
                    w="fit-content"
                    aria-label={t`${label}: write (includes read)`}
                    checked={write}
                    onChange={(event) => set(area, event.currentTarget.checked ? 'write' : 'read')}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {error ? (
        <Text id="scope-error" size="sm" c="var(--mantine-color-error)" mt={4} role="alert">
          {error}
        </Text>
      ) : null}
    </div>
  );
}
