import { createHash, randomUUID } from 'node:crypto';
import {
  FINGERPRINT_COMPONENTS,
  type FingerprintComponent,
  type FingerprintComponents,
} from '../../../shared/fingerprint.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { ActivationRow } from '../../platform/db/tables.js';
import { insertComponentChange, machinesWithComponents, setComponents } from './fingerprints-repository.js';
import { findActivation, findActivationOfLicense, lockLicense, updateActivation } from './repository.js';

// A machine is known again by enough of its fingerprint's hashed components (the plan's threshold),
// not only by its hardware id: a replaced disk or a reinstalled OS (a new machine id) keeps the
// seat, and the parts that changed are written to the machine's history. The same machine id with
// other parts (a cloned VM) is another machine. An app that sends no components is known by its
// hardware id alone, as before.

export const DEFAULT_FINGERPRINT_THRESHOLD = 3;

/** The stored components of a machine (null when its app never sent any, or the text is damaged). */
export function storedComponents(row: Pick<ActivationRow, 'components'>): FingerprintComponents | null {
  if (!row.components) return null;
  try {
    return JSON.parse(row.components) as FingerprintComponents;
  } catch {
    return null;
  }
}

export const componentsText = (components: FingerprintComponents): string =>
  JSON.stringify(
    Object.fromEntries(
      FINGERPRINT_COMPONENTS.flatMap((name) => (components[name] ? [[name, components[name]]] : [])),
    ),
  );

export interface ComponentComparison {
  matched: number;
  /** Components both sides have that differ, and ones only one side has. */
  changed: FingerprintComponent[];
}

export function compareComponents(
  stored: FingerprintComponents,
  sent: FingerprintComponents,
): ComponentComparison {
  let matched = 0;
  const changed: FingerprintComponent[] = [];
  for (const name of FINGERPRINT_COMPONENTS) {
    const before = stored[name];
    const now = sent[name];
    if (before === undefined && now === undefined) continue;
    if (before === now) matched += 1;
    else changed.push(name);
  }
  return { matched, changed };
}

/** Whether the components are the same machine's under the threshold (always when both have all alike). */
export const sameMachine = (comparison: ComponentComparison, threshold: number) =>
  comparison.changed.length === 0 || comparison.matched >= threshold;

/** The best match for the sent components among the machines, at or above the threshold. */
export function bestMatch<T extends Pick<ActivationRow, 'components'>>(
  machines: T[],
  sent: FingerprintComponents,
  threshold: number,
): { machine: T; comparison: ComponentComparison } | undefined {
  let best: { machine: T; comparison: ComponentComparison } | undefined;
  for (const machine of machines) {
    const stored = storedComponents(machine);
    if (!stored) continue;
    const comparison = compareComponents(stored, sent);
    if (!sameMachine(comparison, threshold)) continue;
    if (!best || comparison.matched > best.comparison.matched) best = { machine, comparison };
  }
  return best;
}

/**
 * The hardware id a second machine presenting a known hardware id is kept under (a cloned VM):
 * derived from the id and its own components, so the license's one row per hardware id still holds.
 */
export const cloneHardwareId = (hardwareId: string, components: FingerprintComponents) =>
  createHash('sha256')
    .update(`clone\0${hardwareId}\0${componentsText(components)}`)
    .digest('hex');

/** The machine a device is, on a license: its row (if known), the hardware id a new row takes, and what changed. */
export interface ResolvedMachine {
  existing: ActivationRow | undefined;
  /** The hardware id a new row is written under (the presented one, unless a clone holds it). */
  hardwareId: string;
  comparison: ComponentComparison | null;
}

/**
 * Which of the license's machines the device is: by hardware id, then (with components) by enough
 * components alike. A presented hardware id whose stored components do not match is another machine.
 */
export async function resolveMachine(
  trx: DbOrTransaction,
  licenseId: string,
  hardwareId: string,
  components: FingerprintComponents | undefined,
  threshold: number,
): Promise<ResolvedMachine> {
  const byId = await findActivation(trx, licenseId, hardwareId);
  if (!components) return { existing: byId, hardwareId, comparison: null };
  const stored = byId ? storedComponents(byId) : null;
  if (byId && !stored) return { existing: byId, hardwareId, comparison: null };
  if (byId && stored) {
    const comparison = compareComponents(stored, components);
    if (sameMachine(comparison, threshold)) return { existing: byId, hardwareId, comparison };
  }
  const machines = await machinesWithComponents(trx, licenseId);
  const match = bestMatch(machines, components, threshold);
  if (match) return { existing: match.machine, hardwareId, comparison: match.comparison };
  return {
    existing: undefined,
    hardwareId: byId ? cloneHardwareId(hardwareId, components) : hardwareId,
    comparison: null,
  };
}

/** Keeps a recognised machine's new components, and which changed in its history. */
export async function noteComponents(
  trx: DbOrTransaction,
  activation: ActivationRow,
  components: FingerprintComponents | undefined,
  comparison: ComponentComparison | null,
  at: string,
): Promise<void> {
  if (!components) return;
  const text = componentsText(components);
  if (activation.components === text) return;
  // Only over the components this change was judged against: of two at once, one writes the history.
  if (!(await setComponents(trx, activation.id, text, activation.components))) return;
  if (comparison && comparison.changed.length > 0)
    await insertComponentChange(trx, {
      id: randomUUID(),
      activation_id: activation.id,
      license_id: activation.license_id,
      changed: JSON.stringify(comparison.changed),
      matched: comparison.matched,
      changed_at: at,
    });
}

/**
 * A machine known again by its components: its new components (and which changed) are kept, and
 * a machine that comes back under a new hardware id (a reinstalled OS) takes it, unless another
 * machine of the license holds it.
 */
export async function keepRecognised(
  trx: DbOrTransaction,
  activation: ActivationRow,
  device: { hardware_id: string; components?: FingerprintComponents | undefined },
  comparison: ComponentComparison | null,
  at: string,
): Promise<ActivationRow> {
  await noteComponents(trx, activation, device.components, comparison, at);
  if (activation.hardware_id === device.hardware_id || comparison === null) return activation;
  if (await findActivation(trx, activation.license_id, device.hardware_id)) return activation;
  return updateActivation(trx, activation.id, { hardware_id: device.hardware_id });
}

/** Whether a check's components differ from what its machine has stored (none stored: they do). */
export const componentsDiffer = (
  activation: Pick<ActivationRow, 'components'>,
  components: FingerprintComponents,
): boolean => activation.components !== componentsText(components);

/**
 * Writes what a license check saw of a recognised machine's components, as an activation would:
 * under the license's lock, judged again against the stored row (a change meanwhile is seen), the
 * new components kept, the changed ones added to the machine's history, and a new hardware id (a
 * reinstalled OS) taken. Components beyond the plan's tolerance are not this machine's: nothing is
 * written (the check refused them).
 */
export function createCheckedComponents({ db, clock }: { db: Db; clock: { now(): Date } }) {
  return async (
    seen: Pick<ActivationRow, 'id' | 'license_id'>,
    device: { hardware_id: string; components: FingerprintComponents },
    threshold: number,
  ): Promise<void> => {
    await db.transaction().execute(async (trx) => {
      await lockLicense(trx, seen.license_id);
      const current = await findActivationOfLicense(trx, seen.license_id, { activationId: seen.id });
      if (!current || current.deactivated_at !== null) return;
      const stored = storedComponents(current);
      const comparison = stored ? compareComponents(stored, device.components) : null;
      if (comparison && !sameMachine(comparison, threshold)) return;
      await keepRecognised(trx, current, device, comparison, clock.now().toISOString());
    });
  };
}

export type CheckedComponents = ReturnType<typeof createCheckedComponents>;
