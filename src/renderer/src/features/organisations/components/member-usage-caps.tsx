import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
import { NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { MAX_MEMBER_CAP, type MemberUsage } from '../../../../../shared/api/member-usage';
import type { Organisation } from '../../../../../shared/api/organisations';
import { showToast } from '../../../components/data/toast';
import { FormDialog } from '../../../components/forms/form-dialog';
import { failureMessage } from '../../../lib/api-errors';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';
import { numberFormat } from '../../../lib/number-format';
import {
  organisationUsageMessages,
  useGetOrganisationUsageQuery,
  useSetMemberUsageCapsMutation,
} from '../organisation-usage-endpoints';

/** Counts in the language shown (English as before: en-US). */
const count = (value: number) => numberFormat(formattingLocale() ?? 'en-US').format(value);

/** Each member's use of the organisation's metered features this period, for owners and admins. */
export function useMembersUsage(organisation: Organisation, manage: boolean) {
  const { data } = useGetOrganisationUsageQuery(organisation.id, {
    skip: !manage || organisation.license_id === null,
  });
  return new Map((data?.members ?? []).map((member) => [member.user_id, member]));
}

/** "120 of 500 AI chat messages" per feature, or "120 (no cap)". */
export function MemberUsageCell({ usage }: { usage: MemberUsage | undefined }) {
  const { t } = useLingui();
  if (!usage || usage.features.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={2}>
      {usage.features.map((feature) => (
        <Text key={feature.feature_id} size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {feature.name}: {count(feature.used)}
          {feature.cap === null ? (
            <Text span size="xs" c="dimmed">
              {' '}
              <Trans>(no cap)</Trans>
            </Text>
          ) : (
            ` ${t`of ${ph({ cap: count(feature.cap) })}`}`
          )}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * Sets the most a member may use of each metered feature per period; an empty field is no cap.
 * What all members use together still stops at the organisation's allowance.
 */
export function UsageCapsDialog({
  organisation,
  member,
  name,
  onClose,
}: {
  organisation: Organisation;
  member: MemberUsage | null;
  name: string;
  onClose(): void;
}) {
  const { t } = useLingui();
  const [setCaps, { isLoading }] = useSetMemberUsageCapsMutation();
  const [values, setValues] = useState<Record<string, number | ''>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);
  // Opened for another member: start from their caps, with no refusal shown.
  if (member && shownFor !== member.user_id) {
    setShownFor(member.user_id);
    setValues(Object.fromEntries(member.features.map((feature) => [feature.feature_id, feature.cap ?? ''])));
    setFailure(null);
  }
  const units = t`units`;
  const close = () => {
    setShownFor(null);

    onClose();
  };

  const submit = async (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    if (!member) return;
    setFailure(null);
    try {
      await setCaps({
        organisationId: organisation.id,
        userId: member.user_id,
        caps: member.features.map((feature) => {
          const value = values[feature.feature_id];
          return { feature: feature.feature_id, cap: typeof value === 'number' ? value : null };
        }),
      }).unwrap();
      showToast({ title: t`Caps saved`, message: t`The usage caps of ${name} are saved.` });
      close();
    } catch (error) {
      setFailure(failureMessage(error, organisationUsageMessages.setCapsFailed));
    }
  };

  return (
    <FormDialog
      opened={member !== null}
      onClose={close}
      title={t`Usage caps of ${name}`}
      intro={t`The most this member may use per period. Leave a field empty for no cap: they then share the organization’s allowance with everyone else.`}
      onSubmit={(event) => void submit(event)}
      failure={failure}
      failureTitle={t`The caps were not saved`}
      submitLabel={t`Save caps`}
      submitting={isLoading}
      holdWhileSubmitting
    >
      <Stack gap="md">
        {member?.features.map((feature) => (
          <NumberInput
            key={feature.feature_id}
            label={
              feature.period === 'day'
                ? t`${ph({ feature: feature.name })} (${ph({ unit: feature.unit ?? units })} a day)`
                : t`${ph({ feature: feature.name })} (${ph({ unit: feature.unit ?? units })} a month)`
            }
            description={t`Used ${ph({ used: count(feature.used) })} this period.`}

            placeholder={t`No cap`}
            min={0}
            max={MAX_MEMBER_CAP}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            inputMode="numeric"
            value={values[feature.feature_id] ?? ''}
            onChange={(value) =>
              setValues((current) => ({
                ...current,
                [feature.feature_id]: typeof value === 'number' ? value : '',
              }))
            }
          />
        ))}
      </Stack>
    </FormDialog>
  );
}
