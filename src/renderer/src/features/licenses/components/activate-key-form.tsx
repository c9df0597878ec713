import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { licenseKeyInputSchema } from '../../../../../shared/api/licenses';
import { normalizeLicenseKey } from '../../../../../shared/license-key';
import { licenseMessages } from '../../../../../shared/screen-messages';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { Notice } from '../../../components/data/notice';
import { ArrowRightIcon } from '../../../components/brand/icons';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage, isApiFailure } from '../../../lib/api-errors';
import { useAppDispatch } from '../../../lib/store-hooks';
import { useActivateLicenseMutation, useCheckoutFloatingSeatMutation } from '../licenses-endpoints';
import {
  type ActivationRefusal,
  refusalWithSeats,
  showActivated,
  showFloatingSeat,
} from '../use-activate-here';

const activateFormSchema = z.object({ licenseKey: licenseKeyInputSchema });

const sameKey = (typed: string, key: string) =>
  (normalizeLicenseKey(typed) ?? typed.trim().toUpperCase()) === key.toUpperCase();

/** A refusal as the user needs to read it: what the server said, and where to go to fix it. */
export function RefusalAlert({ refusal }: { refusal: ActivationRefusal }) {
  const { t } = useLingui();
  const { license, seatsFull } = refusal;
  return (
    <Notice
      tone={seatsFull ? 'warning' : 'danger'}
      title={seatsFull ? t`All seats of this license are in use` : t`Could not activate this machine`}
      urgent
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm" data-testid="activation-error">
          {refusal.message}
        </Text>
        {license ? (
          <>
            {seatsFull ? (
              <Text size="sm">
                <Trans>
                  Its details page lists the machines that use its seats: deactivate one there to make room
                  for this one.
                </Trans>
              </Text>
            ) : null}
            <Button
              component={Link}
              to={pathWith(portalPaths.licenseDetail, { licenseId: license.license_id })}
              variant={seatsFull ? 'filled' : 'light'}
              size="sm"
              rightSection={<ArrowRightIcon size={16} />}
            >
              {seatsFull ? t`Free a seat` : t`Open the license`}
            </Button>
          </>
        ) : null}
      </Stack>
    </Notice>
  );
}

/**
 * "Activate by key": validates the key, activates THIS machine (its hardware id from the
 * platform adapter) and, when refused, says why and links to the license where seats are freed.
 */
export function ActivateKeyForm() {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [activate] = useActivateLicenseMutation();
  const [checkout] = useCheckoutFloatingSeatMutation();
  const headingId = useId();
  const [refusal, setRefusal] = useState<ActivationRefusal | null>(null);
  const form = useForm({
    initialValues: { licenseKey: '' },
    validate: schemaResolver(activateFormSchema),
  });

  const submit = form.onSubmit(
    async (values) => {
      setRefusal(null);
      const { licenseKey } = activateFormSchema.parse(values);
      const result = await activate({ license_key: licenseKey });
      if (result.data) {
        showActivated(result.data.plan.name);
        form.reset();
        return;
      }
      // A floating license's key is never activated: this machine takes a seat of its pool instead.
      if (isApiFailure(result.error) && result.error.code === 'license_floating') {
        const seat = await checkout({ license_key: licenseKey });
        if (seat.data) {
          showFloatingSeat(t`This license`, seat.data.seats, seat.data.in_use);
          form.reset();
          return;
        }
        const refused = failureMessage(seat.error, licenseMessages.activationFailed);
        setRefusal({ message: refused, license: null, seatsFull: false });
        return;
      }
      const message = failureMessage(result.error, licenseMessages.activationFailed);
      setRefusal(await refusalWithSeats(dispatch, message, (item) => sameKey(licenseKey, item.license_key)));
    },
    () => form.getInputNode('licenseKey')?.focus(),
  );

  return (
    <SectionCard
      headingId={headingId}
      title={t`Activate by key`}
      description={t`Enter a license key to use it on this machine. It takes one of the license’s seats.`}
      onSubmit={submit}
      h="100%"
    >
      <TextInput
        label={t`License key`}
        placeholder="XXXXX-XXXXX-XXXXX-XXXXX-XXXXX"
        description={t`25 letters and digits in five groups; dashes and case do not matter.`}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="characters"
        required
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        {...form.getInputProps('licenseKey')}
      />
      {refusal ? <RefusalAlert refusal={refusal} /> : null}
      <Button type="submit" loading={form.submitting} style={{ alignSelf: 'flex-start' }}>
        <Trans>Activate</Trans>
      </Button>
    </SectionCard>
  );
}
