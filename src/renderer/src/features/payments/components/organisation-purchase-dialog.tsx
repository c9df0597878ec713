import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Modal, NumberInput, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { MAX_SEATS, type Organisation } from '../../../../../shared/api/organisations';
import type { Plan } from '../../../../../shared/api/plans';
import { portalPaths } from '../../../../../shared/routes';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { failureMessage } from '../../../lib/api-errors';
import { organisationMessages, organisationsApi } from '../../organisations';
import { formatRecurringPrice } from '../../subscriptions';
import type { OrganisationTarget } from '../use-subscribe';

/** Organisations the buyer may buy for: owned or administered, without a subscription yet. */
const canBuyFor = (organisation: Organisation) =>
  (organisation.role === 'owner' || organisation.role === 'admin') && organisation.subscription_id === null;

export interface OrganisationPurchaseDialogProps {
  /** The seat-based plan being bought; null while the dialog is closed. */
  plan: (Plan & { billing_interval: 'month' | 'year' }) | null;
  /** The organisation to choose when the dialog opens (an organisation's "Buy the Business plan"). */
  organisationId?: string | null;
  /** One seat's price for each period, after a coupon applied to the plan (the plan's price without one). */
  seatPriceMinor: number;
  onClose(): void;
  onContinue(target: OrganisationTarget): void;
}

/** "3 seats: ₹2,997 / month". */
const seatTotal = (count: number, total: string) =>
  plural(count, { one: `# seat: ${total}`, other: `# seats: ${total}` });

/**
 * What a seat-based plan asks before its checkout: the organisation it is for (one the buyer owns
 * or administers) and how many seats, with what every period then costs.
 */
export function OrganisationPurchaseDialog({
  plan,
  organisationId: linkedOrganisation = null,
  seatPriceMinor,
  onClose,
  onContinue,
}: OrganisationPurchaseDialogProps) {
  const organisations = organisationsApi.endpoints.getOrganisations.useQuery(undefined, { skip: !plan });
  const eligible = (organisations.data ?? []).filter(canBuyFor);
  const [organisationId, setOrganisationId] = useState<string | null>(null);
  const [seats, setSeats] = useState<number | string>(1);
  const chosen = eligible.find((organisation) => organisation.id === organisationId) ?? null;
  // The organisation the buyer came from, or the one there is, is chosen already; a choice starts
  // with a seat per member.
  useEffect(() => {
    if (organisationId) return;
    const linked = eligible.find((organisation) => organisation.id === linkedOrganisation);
    if (linked) setOrganisationId(linked.id);
    else if (eligible.length === 1) setOrganisationId(eligible[0]?.id ?? null);
  }, [eligible, organisationId, linkedOrganisation]);
  useEffect(() => {
    if (chosen) setSeats(Math.max(1, chosen.members_count));
  }, [chosen]);
  useEffect(() => {
    if (!plan) setOrganisationId(null);
  }, [plan]);

  const { t } = useLingui();
  const count = typeof seats === 'number' && Number.isInteger(seats) ? seats : NaN;
  const planName = plan?.name;
  const seatPrice = plan ? formatRecurringPrice(seatPriceMinor, plan.currency, plan.billing_interval) : '';
  const max = MAX_SEATS;
  const seatsValid = count >= 1 && count <= MAX_SEATS;

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t`Close` }}
      opened={plan !== null}
      onClose={onClose}
      title={plan ? t`Buy ${planName} for an organization` : ''}
      centered
      styles={{ title: { fontWeight: 700 } }}
    >
      {plan ? (
        <Stack gap="md">
          <Text size="sm">
            <Trans>
              {planName} is priced per seat: {seatPrice} for each person you give a seat to. Its license
              belongs to the organization, and you assign the seats to its members.
            </Trans>
          </Text>
          {organisations.isLoading ? (
            <Skeleton h={60} aria-label={t`Loading your organizations`} />
          ) : organisations.error ? (
            <ErrorAlert title={t`Your organizations could not be loaded`}>
              <Stack gap="xs" align="flex-start">
                <Text size="sm">
                  {failureMessage(organisations.error, organisationMessages.fetchListFailed)}
                </Text>
                <Button size="xs" variant="white" color="red" onClick={() => void organisations.refetch()}>
                  <Trans>Try again</Trans>
                </Button>
              </Stack>
            </ErrorAlert>
          ) : eligible.length === 0 ? (
            <Text size="sm" data-testid="no-organisation">
              <Trans>
                You own or administer no organization without a subscription.{' '}
                <Anchor component={Link} to={portalPaths.organisations} underline="always" fz="inherit">
                  Create an organization
                </Anchor>{' '}
                first, then come back to buy its seats.
              </Trans>
            </Text>
          ) : (
            <>
              <Select
                label={t`Organization`}
                placeholder={t`Choose an organization`}
                data={eligible.map((organisation) => ({ value: organisation.id, label: organisation.name }))}
                value={organisationId}
                onChange={setOrganisationId}
                allowDeselect={false}
                required
                comboboxProps={{ withinPortal: true }}
              />
              <NumberInput
                label={t`Seats`}
                description={t`One for each person who will use the app; you can buy more later.`}
                min={1}
                max={MAX_SEATS}
                allowDecimal={false}
                allowNegative={false}
                value={seats}
                onChange={setSeats}
                error={seats !== '' && !seatsValid ? t`Between 1 and ${max} seats` : undefined}
                required
              />
              <Text size="sm" fw={600} aria-live="polite" data-testid="organisation-total">
                {seatsValid
                  ? seatTotal(
                      count,
                      formatRecurringPrice(seatPriceMinor * count, plan.currency, plan.billing_interval),
                    )
                  : t`Enter the number of seats`}
              </Text>
            </>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button
              disabled={!chosen || !seatsValid}
              onClick={() => chosen && onContinue({ organisationId: chosen.id, seats: count })}
            >
              <Trans>Continue to payment</Trans>
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
