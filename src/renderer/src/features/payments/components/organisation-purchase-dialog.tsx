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
  /** One seat's price for each period, after a coupon applied to the plan (the plan's price without one). */
  seatPriceMinor: number;
  onClose(): void;
  onContinue(target: OrganisationTarget): void;
}

/**
 * What a seat-based plan asks before its checkout: the organisation it is for (one the buyer owns
 * or administers) and how many seats, with what every period then costs.
 */
export function OrganisationPurchaseDialog({
  plan,
  seatPriceMinor,
  onClose,
  onContinue,
}: OrganisationPurchaseDialogProps) {
  const organisations = organisationsApi.endpoints.getOrganisations.useQuery(undefined, { skip: !plan });
  const eligible = (organisations.data ?? []).filter(canBuyFor);
  const [organisationId, setOrganisationId] = useState<string | null>(null);
  const [seats, setSeats] = useState<number | string>(1);
  const chosen = eligible.find((organisation) => organisation.id === organisationId) ?? null;
  // The one organisation there is is chosen already; a choice starts with a seat per member.
  useEffect(() => {
    if (!organisationId && eligible.length === 1) setOrganisationId(eligible[0]?.id ?? null);
  }, [eligible, organisationId]);
  useEffect(() => {
    if (chosen) setSeats(Math.max(1, chosen.members_count));
  }, [chosen]);
  useEffect(() => {
    if (!plan) setOrganisationId(null);
  }, [plan]);

  const count = typeof seats === 'number' && Number.isInteger(seats) ? seats : NaN;
  const seatsValid = count >= 1 && count <= MAX_SEATS;

  return (
    <Modal
      opened={plan !== null}
      onClose={onClose}
      title={plan ? `Buy ${plan.name} for an organization` : ''}
      centered
      styles={{ title: { fontWeight: 700 } }}
    >
      {plan ? (
        <Stack gap="md">
          <Text size="sm">
            {plan.name} is priced per seat:{' '}
            {formatRecurringPrice(seatPriceMinor, plan.currency, plan.billing_interval)} for each person you
            give a seat to. Its license belongs to the organization, and you assign the seats to its members.
          </Text>
          {organisations.isLoading ? (
            <Skeleton h={60} aria-label="Loading your organizations" />
          ) : organisations.error ? (
            <ErrorAlert title="Your organizations could not be loaded">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">
                  {failureMessage(organisations.error, organisationMessages.fetchListFailed)}
                </Text>
                <Button size="xs" variant="white" color="red" onClick={() => void organisations.refetch()}>
                  Try again
                </Button>
              </Stack>
            </ErrorAlert>
          ) : eligible.length === 0 ? (
            <Text size="sm" data-testid="no-organisation">
              You own or administer no organization without a subscription.{' '}
              <Anchor component={Link} to={portalPaths.organisations} underline="always" fz="inherit">
                Create an organization
              </Anchor>{' '}
              first, then come back to buy its seats.
            </Text>
          ) : (
            <>
              <Select
                label="Organization"
                placeholder="Choose an organization"
                data={eligible.map((organisation) => ({ value: organisation.id, label: organisation.name }))}
                value={organisationId}
                onChange={setOrganisationId}
                allowDeselect={false}
                required
                comboboxProps={{ withinPortal: true }}
              />
              <NumberInput
                label="Seats"
                description="One for each person who will use the app; you can buy more later."
                min={1}
                max={MAX_SEATS}
                allowDecimal={false}
                allowNegative={false}
                value={seats}
                onChange={setSeats}
                error={seats !== '' && !seatsValid ? `Between 1 and ${MAX_SEATS} seats` : undefined}
                required
              />
              <Text size="sm" fw={600} aria-live="polite" data-testid="organisation-total">
                {seatsValid
                  ? `${count} seat${count === 1 ? '' : 's'}: ${formatRecurringPrice(
                      seatPriceMinor * count,
                      plan.currency,
                      plan.billing_interval,
                    )}`
                  : 'Enter the number of seats'}
              </Text>
            </>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              disabled={!chosen || !seatsValid}
              onClick={() => chosen && onContinue({ organisationId: chosen.id, seats: count })}
            >
              Continue to payment
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
