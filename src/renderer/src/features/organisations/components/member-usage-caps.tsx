import { NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { MAX_MEMBER_CAP, type MemberUsage } from '../../../../../shared/api/member-usage';
import type { Organisation } from '../../../../../shared/api/organisations';
import { showToast } from '../../../components/data/toast';
import { FormDialog } from '../../../components/forms/form-dialog';
import { failureMessage } from '../../../lib/api-errors';
import {
  organisationUsageMessages,
  useGetOrganisationUsageQuery,
  useSetMemberUsageCapsMutation,
} from '../organisation-usage-endpoints';

const numberFormat = new Intl.NumberFormat('en-US');
const per = (period: 'day' | 'month') => (period === 'day' ? 'a day' : 'a month');

/** Each member's use of the organisation's metered features this period, for owners and admins. */
export function useMembersUsage(organisation: Organisation, manage: boolean) {
  const { data } = useGetOrganisationUsageQuery(organisation.id, {
    skip: !manage || organisation.license_id === null,
  });
  return new Map((data?.members ?? []).map((member) => [member.user_id, member]));
}

/** "120 of 500 AI chat messages" per feature, or "120 (no cap)". */
export function MemberUsageCell({ usage }: { usage: MemberUsage | undefined }) {
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
          {feature.name}: {numberFormat.format(feature.used)}
          {feature.cap === null ? (
            <Text span size="xs" c="dimmed">
              {' '}
              (no cap)
            </Text>
          ) : (
            ` of ${numberFormat.format(feature.cap)}`
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
      showToast({ title: 'Caps saved', message: `The usage caps of ${name} are saved.` });
      close();
    } catch (error) {
      setFailure(failureMessage(error, organisationUsageMessages.setCapsFailed));
    }
  };

  return (
    <FormDialog
      opened={member !== null}
      onClose={close}
      title={`Usage caps of ${name}`}
      intro="The most this member may use per period. Leave a field empty for no cap: they then share the organization’s allowance with everyone else."
      onSubmit={(event) => void submit(event)}
      failure={failure}
      failureTitle="The caps were not saved"
      submitLabel="Save caps"
      submitting={isLoading}
      holdWhileSubmitting
    >
      <Stack gap="md">
        {member?.features.map((feature) => (
          <NumberInput
            key={feature.feature_id}
            label={`${feature.name} (${feature.unit ?? 'units'} ${per(feature.period)})`}
            description={`Used ${numberFormat.format(feature.used)} this period.`}
            placeholder="No cap"
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
