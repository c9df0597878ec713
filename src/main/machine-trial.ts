import type { LeaseSigningKeys } from '../shared/api/licenses.js';
import type { MachineTrial } from '../shared/api/machine-trials.js';
import type { LicenseCheckResult, MachineTrialStartResult, MachineTrialState } from '../shared/bridge.js';
import {
  LEASE_MAX_LIFETIME_SECONDS,
  type LeaseClaims,
  type LeaseProblem,
  verifyLease,
  verifyMachineTrialLease,
} from '../shared/lease.js';
import { trialAt } from '../shared/trial-days.js';
import type { LicenseStateFile } from './license-state.js';
import { keyFingerprint, offlineUnavailableMessage, unverifiedAnswerMessage } from './licensing.js';
import { offlineValidMessage } from '../shared/bridge.js';
import type { MachineTrialApi } from './machine-trial-api.js';

/** This machine's trial before any account, kept and checked in main. */
export interface MachineTrials {
  /** Asks the server for this machine's trial (new, or the one running) and keeps its lease. */
  start(planId?: string): Promise<MachineTrialStartResult>;
  /**
   * The status check of a machine without a license key: the trial's, online else from the kept
   * lease; null when this machine holds no machine trial.
   */
  check(): Promise<LicenseCheckResult | null>;
  /** The trial as the kept lease says, verified under the pinned keys, without the network. */
  current(): Promise<MachineTrialState | null>;
  /**
   * After a sign-in in this app: starts the account's trial from this machine, which takes the
   * machine trial over (its end, this machine activated), and keeps the license it answers as the
   * machine's key. Nothing happens without a machine trial or with a license key already kept.
   */
  claim(accessToken: string): Promise<'claimed' | 'refused' | 'none'>;
}

export interface MachineTrialsOptions {
  api: MachineTrialApi;
  state: LicenseStateFile;
  hardwareId: () => string;
  /** The pinned lease keys (never the server's or the state file's); without them, online only. */
  trustedKeys: LeaseSigningKeys | undefined;
  now: () => Date;
  /** What the account trial's activation names this machine by. */
  device: { name: () => string; platform: string; appVersion: string };
  log?: (message: string) => void;
}

// A kept lease that fails these checks is not worth keeping: no clock change will make it valid.
const UNUSABLE_LEASE: ReadonlySet<LeaseProblem> = new Set([
  'malformed',
  'unknown_key',
  'wrong_algorithm',
  'bad_signature',
  'wrong_hardware',
  'lifetime_too_long',
]);

/** The server's refusals that end the machine's trial for good: it ran, or an account has it. */
const TRIAL_GONE = new Set(['machine_trial_used', 'machine_trial_claimed']);

export const machineTrialOfflineMessage = (reason: string) =>
  `Offline: ${reason}. Connect to the internet to start the free trial.`;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

const stateOf = (claims: Pick<LeaseClaims, 'plan' | 'trial'>, now: Date): MachineTrialState | null => {
  const trial = claims.trial ? trialAt(claims.trial.ends_at, now) : null;
  return trial ? { plan: claims.plan, ends_at: trial.ends_at, days_left: trial.days_left } : null;
};

/**
 * Machine trials in main: the app asks for one with its hardware id and keeps the signed lease
 * beside the license state, under the same clock high-water mark, so a clock set back fails the
 * lease instead of stretching the trial. The end is the server's; a lease that does not verify
 * under the pinned keys (forged, another machine's, a license's) counts for nothing.
 */
export function createMachineTrials(options: MachineTrialsOptions): MachineTrials {
  const { api, state, trustedKeys } = options;
  const log = options.log ?? (() => undefined);

  /** Whether a fresh answer's lease is the server's, for this machine, marking this machine trial. */
  async function answerVerifies(answer: MachineTrial, hardwareId: string, nowSeconds: number) {
    if (!trustedKeys) return true;
    const verification = await verifyMachineTrialLease(answer.lease, {
      keys: trustedKeys,
      hardwareId,
      nowSeconds,
      maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS,
      // Just issued: a machine clock behind the server's is slow, not rolled back.
      driftSeconds: Number.MAX_SAFE_INTEGER,
    });
    if (!verification.ok || verification.claims.sub !== answer.machine_trial_id) {
      log(`Machine trial: the server's lease does not verify here; answer refused`);
      return false;
    }
    return true;
  }

  /** Asks the server (again) and keeps a verified answer; the outcome, or the answer kept. */
  async function ask(planId: string | undefined) {
    const hardwareId = options.hardwareId();
    const now = options.now();
    const outcome = await api.startMachineTrial(hardwareId, planId);
    if (outcome.kind === 'ok') {
      if (!(await answerVerifies(outcome.answer, hardwareId, seconds(now))))
        return { kind: 'failed' as const, message: unverifiedAnswerMessage };
      const { answer } = outcome;
      await state.update((s) => ({
        ...s,
        machine_trial: { token: answer.lease, plan_id: answer.plan.id },
        last_seen_seconds: Math.max(s.last_seen_seconds, seconds(now)),
      }));
    } else if (outcome.kind === 'refused' && TRIAL_GONE.has(outcome.code))
      // Ended, or an account has it: the kept lease must not keep the app working.
      await state.update((s) => ({ ...s, machine_trial: null }));
    return outcome;
  }

  /** The kept lease, checked under the pinned keys against this machine's clock and the high-water mark. */
  async function kept() {
    const current = await state.read();
    if (!current.machine_trial || !trustedKeys) return { current, verification: null };
    const verification = await verifyMachineTrialLease(current.machine_trial.token, {
      keys: trustedKeys,
      hardwareId: options.hardwareId(),
      nowSeconds: seconds(options.now()),
      lastSeenSeconds: current.last_seen_seconds,
      maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS,
    });
    return { current, verification };
  }

  async function offline(reason: string): Promise<LicenseCheckResult> {
    if (!trustedKeys) return { valid: false, status: 'error', message: offlineUnavailableMessage(reason) };
    const { verification } = await kept();
    if (!verification) return { valid: false, status: 'error', message: machineTrialOfflineMessage(reason) };
    if (!verification.ok) {
      if (UNUSABLE_LEASE.has(verification.problem))
        await state.update((s) => ({ ...s, machine_trial: null }));
      return { valid: false, status: 'error', message: verification.message, machine_trial: true };
    }
    const now = options.now();
    await state.update((s) => ({ ...s, last_seen_seconds: Math.max(s.last_seen_seconds, seconds(now)) }));
    const { claims, remainingSeconds } = verification;
    const trial = stateOf(claims, now);
    return {
      valid: true,
      status: 'active',
      message: offlineValidMessage(remainingSeconds),
      requires_activation: false,
      expires_at: claims.license_expires_at,
      ...(trial ? { trial: { ends_at: trial.ends_at, days_left: trial.days_left } } : {}),
      machine_trial: true,
      offline: {
        lease_expires_at: new Date(claims.exp * 1000).toISOString(),
        grace_remaining_seconds: remainingSeconds,
      },
    };
  }

  return {
    async start(planId) {
      const current = await state.read();
      if (current.license_key)
        return {
          started: false,
          message: 'This machine uses a license already: there is nothing to try.',
          trial: null,
        };
      const outcome = await ask(planId ?? current.machine_trial?.plan_id);
      switch (outcome.kind) {
        case 'ok': {
          const { answer } = outcome;
          return {
            started: true,
            message: answer.message,
            trial: { plan: answer.plan, ends_at: answer.trial.ends_at, days_left: answer.trial.days_left },
          };
        }
        case 'refused':
        case 'failed':
          return { started: false, message: outcome.message, trial: null };
        case 'unreachable':
          return { started: false, message: machineTrialOfflineMessage(outcome.reason), trial: null };
      }
    },

    async check() {
      const current = await state.read();
      if (current.license_key || !current.machine_trial) return null;
      const outcome = await ask(current.machine_trial.plan_id);
      switch (outcome.kind) {
        case 'ok': {
          const { answer } = outcome;
          return {
            valid: true,
            status: 'active',
            message: answer.message,
            requires_activation: false,
            expires_at: answer.trial.ends_at,
            trial: answer.trial,
            machine_trial: true,
          };
        }
        case 'refused':
          if (outcome.code === 'machine_trial_used')
            return {
              valid: false,
              status: 'trial_expired',
              message: outcome.message,
              requires_activation: true,
              machine_trial: true,
            };
          if (outcome.code === 'machine_trial_claimed')
            return {
              valid: false,
              status: 'not_configured',
              message: outcome.message,
              requires_activation: true,
            };
          return { valid: false, status: 'error', message: outcome.message, machine_trial: true };
        case 'failed':
          return { valid: false, status: 'error', message: outcome.message, machine_trial: true };
        case 'unreachable':
          return offline(outcome.reason);
      }
    },

    async current() {
      const { verification } = await kept();
      return verification?.ok ? stateOf(verification.claims, options.now()) : null;
    },

    async claim(accessToken) {
      const current = await state.read();
      if (current.license_key || !current.machine_trial) return 'none';
      const hardwareId = options.hardwareId();
      const outcome = await api.startAccountTrial(accessToken, {
        plan_id: current.machine_trial.plan_id,
        hardware_id: hardwareId,
        device_name: options.device.name().slice(0, 100),
        platform: options.device.platform,
        app_version: options.device.appVersion,
      });
      if (outcome.kind !== 'ok') {
        log(
          `Machine trial: not taken over by the account (${outcome.kind === 'refused' ? outcome.code : outcome.kind})`,
        );
        return 'refused';
      }
      const { answer } = outcome;
      const lease = answer.lease;
      if (trustedKeys) {
        const verification = lease
          ? await verifyLease(lease, {
              keys: trustedKeys,
              hardwareId,
              nowSeconds: seconds(options.now()),
              maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS,
              driftSeconds: Number.MAX_SAFE_INTEGER,
            })
          : null;
        if (
          !verification?.ok ||
          verification.claims.sub !== answer.license_id ||
          verification.claims.kfp !== keyFingerprint(answer.license_key)
        ) {
          log('Machine trial: the account trial’s lease does not verify here; not kept');
          return 'refused';
        }
      }
      // The license is the machine's now: its key and lease, and no machine trial beside it.
      await state.update((s) => ({
        ...s,
        license_key: answer.license_key,
        lease: trustedKeys && lease ? { token: lease } : null,
        machine_trial: null,
      }));
      log(`Machine trial: taken over by the account as license ${answer.license_id}`);
      return 'claimed';
    },
  };
}
