import type { Clock } from '../../platform/clock.js';
import { sha256 } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import { HttpError } from '../../platform/http-error.js';
import {
  activationById,
  activationBySeatKeyHash,
  type AdmissionLicense,
  admissionLicenseById,
  admissionLicenseByKey,
  heldFloatingSeat,
  heldFloatingSeatById,
  memberKeyByHash,
} from './admission-repository.js';
import { findActivation } from './repository.js';
import { machinesWithComponents } from './fingerprints-repository.js';
import { admitMachine, type MachineLookups, type PresentedDevice } from './machine-admission.js';
import { inactiveLicense, machineRefusal } from './refusals.js';
import { effectiveStatus } from './views.js';

/** The machine an admission names: its activation's id, or the id of the floating seat it holds. */
export interface AdmittedMachineRef {
  kind: 'activation' | 'floating';
  id: string;
  /** The hardware id the machine is known by (a staged rollout's bucket). */
  hardwareId: string;
}

/** A machine the license check would accept, on its active license. */
export interface Admission {
  license: Pick<AdmissionLicense, 'id' | 'updates_until' | 'organisation_name'>;
  machine: AdmittedMachineRef;
}

/**
 * The license check's acceptance of a machine for another context (the update feed): the same
 * rule (`admitMachine`: an activation known by seat key, components or hardware id, else a
 * floating seat held now) and the same refusals, read through the query builder since the feed is
 * not the check's hot path. `admit` answers undefined when no license has the key (the caller
 * words that itself); everything else refused throws the license check's error.
 */
export function createUpdateAdmission({ db, clock }: { db: Db; clock: Clock }) {
  const lookups: MachineLookups = {
    machinesWithComponents: (licenseId) => machinesWithComponents(db, licenseId),
    floatingSeat: (licenseId, hardwareId, now) => heldFloatingSeat(db, licenseId, hardwareId, now),
  };

  function assertActive(license: AdmissionLicense, now: Date) {
    const status = effectiveStatus(license, now);
    if (status !== 'active') throw inactiveLicense(license, status);
  }

  return {
    /** The machine the device is on the license its key (or member's seat key) names. */
    async admit(key: string, device: PresentedDevice): Promise<Admission | undefined> {
      const now = clock.now();
      let license = await admissionLicenseByKey(db, key);
      let row;
      if (license) {
        row = {
          id: license.id,
          activation: (await findActivation(db, license.id, device.hardware_id)) ?? null,
          seat_key: false,
          organisation_name: license.organisation_name,
        };
      } else {
        const seatMachine = await activationBySeatKeyHash(db, sha256(key));
        // Else a member machine's floating key: its machine alone, on the seat it holds.
        const memberKey = seatMachine ? undefined : await memberKeyByHash(db, sha256(key));
        const licenseId = seatMachine?.license_id ?? memberKey?.license_id;
        license = licenseId === undefined ? undefined : await admissionLicenseById(db, licenseId);
        if (!license || (!seatMachine && !memberKey)) return undefined;
        if (memberKey && memberKey.hardware_id !== device.hardware_id) return undefined;
        row = {
          id: license.id,
          activation: seatMachine ?? null,
          seat_key: seatMachine !== undefined,
          organisation_name: license.organisation_name,
          floating_member_hardware_id: memberKey?.hardware_id,
        };
      }
      assertActive(license, now);
      const admitted = await admitMachine(lookups, row, device, license.fingerprint_threshold, now).catch(
        (error: unknown) => {
          // A seat key presented from another machine is no key at all: as no license having it.
          if (row.seat_key && error instanceof HttpError && error.code === 'license_not_found')
            return undefined;
          throw error;
        },
      );
      if (!admitted) return undefined;
      return {
        license,
        machine:
          admitted.kind === 'activation'
            ? { kind: 'activation', id: admitted.activation.id, hardwareId: admitted.activation.hardware_id }
            : { kind: 'floating', id: admitted.seat.id, hardwareId: admitted.seat.hardware_id },
      };
    },

    /**
     * The machine an earlier admission named, if it is still accepted: its activation not
     * deactivated, or its floating seat still held (a seat released or lapsed is refused as an
     * unactivated machine is). Undefined when its license is gone.
     */
    async readmit(machine: Pick<AdmittedMachineRef, 'kind' | 'id'>): Promise<Admission | undefined> {
      const now = clock.now();
      if (machine.kind === 'floating') {
        const seat = await heldFloatingSeatById(db, machine.id, now.toISOString());
        if (!seat) throw machineRefusal(undefined);
        const license = await admissionLicenseById(db, seat.license_id);
        if (!license) return undefined;
        assertActive(license, now);
        return { license, machine: { kind: 'floating', id: seat.id, hardwareId: seat.hardware_id } };
      }
      const activation = await activationById(db, machine.id);
      const license = activation && (await admissionLicenseById(db, activation.license_id));
      if (!activation || !license) return undefined;
      assertActive(license, now);
      if (activation.deactivated_at !== null) throw machineRefusal(activation, license.organisation_name);
      return {
        license,
        machine: { kind: 'activation', id: activation.id, hardwareId: activation.hardware_id },
      };
    },
  };
}

export type UpdateAdmission = ReturnType<typeof createUpdateAdmission>;
