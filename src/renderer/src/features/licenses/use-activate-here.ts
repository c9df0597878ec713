import { plural, t } from '@lingui/core/macro';
import { useState } from 'react';
import { licenseMessages } from '../../../../shared/screen-messages';
import { showToast } from '../../components/data/toast';
import { failureMessage, isApiFailure } from '../../lib/api-errors';
import { useAppDispatch } from '../../lib/store-hooks';
import {
  type LicenseRecord,
  refreshLicenses,
  useActivateLicenseMutation,
  useActivateSeatMutation,
  useCheckoutFloatingSeatMutation,
  useCheckoutOrganisationFloatingSeatMutation,
} from './licenses-endpoints';

/** Why an activation was refused, and the license it was about when it is one of the user's. */
export interface ActivationRefusal {
  message: string;
  license: LicenseRecord | null;
  /** Every seat of that license is taken: the way out is to free one on its details page. */
  seatsFull: boolean;
}

/** The toast after this machine was activated on a license of plan `planName`. */
export const showActivated = (planName: string) =>
  showToast({ title: t`This machine is activated`, message: t`It now uses your ${planName} license.` });

/** The toast after this machine took a seat of a floating pool of `seats`, `inUse` held now. */
export const showFloatingSeat = (pool: string, seats: number, inUse: number) =>
  showToast({
    title: t`This machine holds a floating seat`,
    message: t`${pool} has ${plural(seats, { one: '# floating seat', other: '# floating seats' })}; ${inUse} in use now, this one included.`,
  });

/**
 * A refusal with today's seat counts: they tell a full license from other refusals and give the
 * way out. `match` picks the license the activation was for among the user's.
 */
export async function refusalWithSeats(
  dispatch: ReturnType<typeof useAppDispatch>,
  message: string,
  match: (license: LicenseRecord) => boolean,
): Promise<ActivationRefusal> {
  const licenses: LicenseRecord[] = await dispatch(refreshLicenses())
    .unwrap()
    .then(
      (list) => (Array.isArray(list) ? list : []),
      () => [],
    );
  const license = licenses.find(match) ?? null;
  const seatsFull =
    !!license && license.status === 'active' && license.activations_used >= license.max_activations;
  return { message, license, seatsFull };
}

/**
 * "Activate on this machine" for one of the user's licenses: the same activation as the key form
 * (this machine's hardware id, the key kept here), without the key being copied. An organisation's
 * license is activated on the user's seat by being signed in, as its key is for no one to type.
 * Says so in a toast when done; a refusal is kept for the caller to show with its way out.
 */
export function useActivateHere() {
  const dispatch = useAppDispatch();
  const [activate, { isLoading }] = useActivateLicenseMutation();
  const [activateSeat, { isLoading: seatLoading }] = useActivateSeatMutation();
  const [checkoutFloating, { isLoading: floatingLoading }] = useCheckoutOrganisationFloatingSeatMutation();
  const [checkoutOwn, { isLoading: ownLoading }] = useCheckoutFloatingSeatMutation();
  const [refusal, setRefusal] = useState<ActivationRefusal | null>(null);

  async function activateHere(license: LicenseRecord): Promise<boolean> {
    setRefusal(null);
    const { organisation } = license;
    // A personal floating license is never activated: this machine takes a seat of its pool.
    if (!organisation && license.floating) {
      const seat = await checkoutOwn({ license_key: license.license_key });
      if (seat.data) {
        const plan = license.plan.name;
        showFloatingSeat(t`Your ${plan} license`, seat.data.seats, seat.data.in_use);
        return true;
      }
      setRefusal({
        message: failureMessage(seat.error, licenseMessages.activationFailed),
        license,
        seatsFull: false,
      });
      return false;
    }
    const result = organisation
      ? await activateSeat({ organisationId: organisation.id })
      : await activate({ license_key: license.license_key });
    // A floating pool has no activations: this machine takes one of its seats instead.
    if (organisation && isApiFailure(result.error) && result.error.code === 'license_floating') {
      const seat = await checkoutFloating({ organisationId: organisation.id });
      if (seat.data) {
        showFloatingSeat(organisation.name, seat.data.seats, seat.data.in_use);
        return true;
      }
      const message = failureMessage(seat.error, licenseMessages.activationFailed);
      setRefusal({ message, license, seatsFull: false });
      return false;
    }
    if (result.data) {
      if (organisation) {
        const plan = result.data.plan.name;
        const provider = organisation.name;
        showToast({
          title: t`This machine is activated`,
          message: t`It now uses the ${plan} license ${provider} provides.`,
        });
      } else showActivated(result.data.plan.name);
      return true;
    }
    const message = failureMessage(result.error, licenseMessages.activationFailed);
    const found = await refusalWithSeats(dispatch, message, (item) => item.license_id === license.license_id);
    // A seat's machines are counted per member: the license's other seats being full says nothing.
    setRefusal(organisation ? { ...found, seatsFull: false } : found);
    return false;
  }

  return {
    activateHere,
    activating: isLoading || seatLoading || floatingLoading || ownLoading,
    refusal,
    clearRefusal: () => setRefusal(null),
  };
}
