import type { FingerprintComponents } from '../../../shared/fingerprint.js';
import type { ActivationRow } from '../../platform/db/tables.js';
import type { HeldFloatingSeat, LicenseCheckRow } from './check-repository.js';
import { bestMatch, compareComponents, sameMachine, storedComponents } from './fingerprints.js';
import { machineRefusal, unknownKey } from './refusals.js';

// Which machine a device is on a license, and whether it may run there: the license check's rule,
// shared with the update feed (through licensing's index) so that both accept the same machines.

/** A machine a license accepts: its activation, or (on a floating plan) the seat it holds now. */
export type AdmittedMachine =
  { kind: 'activation'; activation: ActivationRow } | { kind: 'floating'; seat: HeldFloatingSeat };

/** What the rule reads beyond the license's row, each only when it needs it. */
export interface MachineLookups {
  /** The license's machines whose apps sent fingerprint components. */
  machinesWithComponents(licenseId: string): Promise<ActivationRow[]>;
  /** The floating seat the machine holds on the license at `now`, while its plan is floating. */
  floatingSeat(licenseId: string, hardwareId: string, now: string): Promise<HeldFloatingSeat | undefined>;
}

/** The device asking: its hardware id and, from apps that send them, its hashed components. */
export interface PresentedDevice {
  hardware_id: string;
  components?: FingerprintComponents | undefined;
}

/**
 * The machine a check with fingerprint components is: the one its hardware id names while enough
 * components match (or it never sent any), else the license's machine they match, if any. A
 * cloned machine id with other components is not the machine it was cloned from.
 */
async function recognise(
  lookups: MachineLookups,
  row: Pick<LicenseCheckRow, 'id' | 'activation'>,
  components: FingerprintComponents,
  threshold: number,
): Promise<ActivationRow | null> {
  const named = row.activation;
  const stored = named ? storedComponents(named) : null;
  if (named && (!stored || sameMachine(compareComponents(stored, components), threshold))) return named;
  const match = bestMatch(await lookups.machinesWithComponents(row.id), components, threshold);
  return match?.machine ?? null;
}

/**
 * The machine a member's seat key names, if the check comes from it: the key is its alone, so it
 * is never another machine of the license. Its components decide where both sides have them (a
 * cloned VM that copied the key is not it; a reinstalled one is), else its hardware id; a key
 * presented from another machine is no key at all.
 */
function seatMachine(
  activation: ActivationRow,
  device: PresentedDevice,
  threshold: number,
): ActivationRow | null {
  const stored = storedComponents(activation);
  const matches =
    device.components && stored
      ? sameMachine(compareComponents(stored, device.components), threshold)
      : undefined;
  if (activation.hardware_id !== device.hardware_id && matches !== true) throw unknownKey();
  return matches === false ? null : activation;
}

/**
 * The machine the device is on an active license, by the license check's rule: the activation its
 * seat key, components or hardware id name, while it is not deactivated; else the floating seat
 * it holds now. Anything else is refused as the check refuses it (`machineRefusal`; `unknownKey`
 * for a seat key presented from another machine).
 */
export async function admitMachine(
  lookups: MachineLookups,
  row: Pick<
    LicenseCheckRow,
    'id' | 'activation' | 'seat_key' | 'organisation_name' | 'floating_member_hardware_id'
  >,
  device: PresentedDevice,
  threshold: number,
  now: Date,
): Promise<AdmittedMachine> {
  // A member machine's floating key: its machine alone, and only on the seat it holds.
  if (row.floating_member_hardware_id !== undefined) {
    if (row.floating_member_hardware_id !== device.hardware_id) throw unknownKey();
    const held = await lookups.floatingSeat(row.id, device.hardware_id, now.toISOString());
    if (!held) throw machineRefusal(undefined, row.organisation_name);
    return { kind: 'floating', seat: held };
  }
  const activation =
    row.seat_key && row.activation
      ? seatMachine(row.activation, device, threshold)
      : device.components
        ? await recognise(lookups, row, device.components, threshold)
        : row.activation;
  if (activation && activation.deactivated_at === null) return { kind: 'activation', activation };
  // A floating license's machine runs on the seat it holds, not on an activation.
  const seat = await lookups.floatingSeat(row.id, device.hardware_id, now.toISOString());
  if (!seat) throw machineRefusal(activation ?? undefined, row.organisation_name);
  return { kind: 'floating', seat };
}
