import type { License, LicenseRefusal } from '../../../../shared/api/licenses';
import { type LicenseCheckResult, toLicenseCheckResult } from '../../../../shared/bridge';
import { licenseMessages } from '../../../../shared/messages';
import { isHttpError, serverDetail, serverMessage } from '../../lib/api-errors';
import { createAppThunk } from '../../lib/create-app-thunk';
import type { Services } from '../../lib/services';
import { fetchPublicPlans, planMessages } from '../plans/plans-api';
import {
  getCurrentPlan,
  getFeature,
  getFeatures,
  getLicense,
  getLicensingStatus,
  getUsage,
  listLicenses,
  postActivation,
  postBaseActivation,
  postDeactivation,
  postPlanActivation,
  postUsage,
  postValidation,
  putPlan,
} from './license-api';

const CACHE = 'licenses:';

/** Runs one licence call; a failure becomes the server's message, else the fallback. */
function licenseThunk<Arg, Result>(
  type: string,
  fallback: string,
  run: (arg: Arg, services: Services) => Promise<Result>,
) {
  return createAppThunk(type, async (arg: Arg, { extra, rejectWithValue }) => {
    try {
      return await run(arg, extra);
    } catch (error) {
      return rejectWithValue(serverMessage(error, fallback));
    }
  });
}

/** Writes change what the cached reads would answer. */
async function afterWrite<T>(services: Services, result: Promise<T>): Promise<T> {
  const value = await result;
  services.cache.invalidate(CACHE);
  return value;
}

/** The key of an activated licence is kept on this machine. */
async function keepKey<T extends { license_key: string }>(services: Services, licence: T): Promise<T> {
  await services.platform.setLicenseKey(licence.license_key);
  return licence;
}

export const fetchLicenses = licenseThunk(
  'license/fetchAll',
  licenseMessages.fetchLicensesFailed,
  (_: void, s) => s.cache.get(`${CACHE}list`, () => listLicenses(s.client.http)),
);

export const fetchLicense = licenseThunk(
  'license/fetchOne',
  licenseMessages.fetchLicenseFailed,
  (id: string, s) => s.cache.get(`${CACHE}detail:${id}`, () => getLicense(s.client.http, id)),
);

export interface ActivateLicenseArgs {
  license_key: string;
  device_name?: string;
  platform?: string;
  app_version?: string;
}

export const activateLicense = licenseThunk(
  'license/activate',
  licenseMessages.activationFailed,
  async (args: ActivateLicenseArgs, s) => {
    const hardware_id = await s.platform.getHardwareId();
    return keepKey(s, await afterWrite(s, postActivation(s.client.http, { ...args, hardware_id })));
  },
);

const isLicence = (value: unknown): value is License =>
  !!value &&
  typeof value === 'object' &&
  typeof (value as License).license_id === 'string' &&
  typeof (value as License).license_key === 'string';

/** Base activation prefers the server's detail and checks the answer's shape. */
export const activateBaseLicense = createAppThunk(
  'license/activateBase',
  async (
    args: { device_name?: string; platform?: string; app_version?: string } | void,
    { extra, rejectWithValue },
  ) => {
    let answer: unknown;
    try {
      const hardware_id = await extra.platform.getHardwareId();
      answer = await afterWrite(
        extra,
        postBaseActivation(extra.client.http, { ...(args ?? {}), hardware_id }),
      );
    } catch (error) {
      if (isHttpError(error) && !error.response) return rejectWithValue(licenseMessages.noResponse);
      return rejectWithValue(serverDetail(error, licenseMessages.baseActivationFailed));
    }
    if (answer === undefined || answer === null || answer === '')
      return rejectWithValue(licenseMessages.noResponse);
    if (!isLicence(answer)) return rejectWithValue(licenseMessages.invalidResponseFormat);
    return keepKey(extra, answer);
  },
);

export const validateLicense = licenseThunk(
  'license/validate',
  licenseMessages.validationFailed,
  async (args: { license_key?: string } | void, s): Promise<LicenseCheckResult> => {
    const license_key = args?.license_key ?? (await s.platform.getLicenseKey());
    if (!license_key) return notConfigured;
    try {
      const answer = await postValidation(s.client.http, {
        license_key,
        hardware_id: await s.platform.getHardwareId(),
      });
      return {
        valid: answer.valid,
        status: answer.status,
        message: answer.message,
        requires_activation: false,
      };
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) return refusal;
      throw error;
    }
  },
);

export const deactivateLicense = licenseThunk(
  'license/deactivate',
  licenseMessages.deactivationFailed,
  async ({ licenseId, activationId }: { licenseId: string; activationId?: string }, s) => {
    // Without an activation id this machine's own seat is given up.
    const body = activationId
      ? { activation_id: activationId }
      : { hardware_id: await s.platform.getHardwareId() };
    return afterWrite(s, postDeactivation(s.client.http, licenseId, body));
  },
);

export const fetchLicenseUsage = licenseThunk(
  'license/fetchUsage',
  licenseMessages.fetchUsageFailed,
  ({ licenseId, days }: { licenseId: string; days?: number }, s) =>
    s.cache.get(`${CACHE}usage:${licenseId}:${days ?? ''}`, () => getUsage(s.client.http, licenseId, days)),
);

export interface TrackUsageArgs {
  licenseId: string;
  featureId: string;
  usageAmount?: number;
  usageData?: Record<string, unknown>;
}

const recordUsage = (
  { licenseId, featureId, usageAmount = 1, usageData = {} }: TrackUsageArgs,
  s: Services,
) => afterWrite(s, postUsage(s.client.http, licenseId, { featureId, usageAmount, usageData }));

/** POST /licenses/{id}/usage from the licence's usage view. */
export const updateLicenseUsage = licenseThunk(
  'license/updateUsage',
  licenseMessages.updateUsageFailed,
  recordUsage,
);

/** Feature usage tracking: usageAmount defaults to 1 and usageData to {}. */
export const trackFeatureUsage = licenseThunk(
  'license/trackFeatureUsage',
  licenseMessages.trackUsageFailed,
  recordUsage,
);

export const checkFeatureAvailability = licenseThunk(
  'license/checkFeature',
  licenseMessages.featureCheckFailed,
  ({ licenseId, featureId }: { licenseId: string; featureId: string }, s) =>
    getFeature(s.client.http, licenseId, featureId),
);

export const fetchLicenseFeatures = licenseThunk(
  'license/fetchFeatures',
  licenseMessages.fetchFeaturesFailed,
  (licenseId: string, s) =>
    s.cache.get(`${CACHE}features:${licenseId}`, () => getFeatures(s.client.http, licenseId)),
);

export const fetchAvailablePlans = licenseThunk(
  'license/fetchPlans',
  planMessages.fetchPlansFailed,
  (_: void, s) => fetchPublicPlans(s),
);

export const activatePlan = licenseThunk(
  'license/activatePlan',
  licenseMessages.activatePlanFailed,
  async ({ planId, userInfo = {} }: { planId: string; userInfo?: Record<string, unknown> }, s) =>
    keepKey(s, await afterWrite(s, postPlanActivation(s.client.http, { planId, userInfo }))),
);

export const fetchCurrentPlan = licenseThunk(
  'license/fetchCurrentPlan',
  licenseMessages.fetchCurrentPlanFailed,
  (_: void, s) => s.cache.get(`${CACHE}current-plan`, () => getCurrentPlan(s.client.http)),
);

export const changePlan = licenseThunk(
  'license/changePlan',
  licenseMessages.activatePlanFailed,
  ({ licenseId, planId }: { licenseId: string; planId: string }, s) =>
    afterWrite(s, putPlan(s.client.http, licenseId, planId)),
);

/** No stored key (or machine id) is answered here, without asking anyone. */
export const notConfigured: LicenseCheckResult = {
  valid: false,
  status: 'not_configured',
  message: licenseMessages.notConfigured,
  requires_activation: true,
};

/** A 4xx licence refusal is an answer (the key is not valid here), not a failed check. */
function refusalOf(error: unknown): LicenseCheckResult | null {
  // The server writes refusals through the shared `licenseRefusalSchema`; only what is read is checked.
  const data: unknown = isHttpError(error) ? error.response?.data : undefined;
  if (typeof data !== 'object' || data === null) return null;
  const { valid, status, message, requires_activation } = data as Partial<
    Record<keyof LicenseRefusal, unknown>
  >;
  if (valid !== false || typeof status !== 'string' || !status || typeof message !== 'string') return null;
  if (requires_activation !== undefined && typeof requires_activation !== 'boolean') return null;
  return {
    valid: false,
    status: status as NonNullable<LicenseRefusal['status']>,
    message,
    requires_activation,
  };
}

/** GET /licensing/status for the stored key on this machine (through the desktop when there is one). */
export const checkLicenseStatus = licenseThunk(
  'license/checkStatus',
  licenseMessages.statusCheckFailed,
  async (_: void, s): Promise<LicenseCheckResult> => {
    // The desktop's main process checks with the API key alone (no sign-in) and keeps the lease.
    if (s.platform.checkLicenseStatus) return s.platform.checkLicenseStatus();
    const license_key = await s.platform.getLicenseKey();
    const hardware_id = license_key ? await s.platform.getHardwareId() : null;
    if (!license_key || !hardware_id) return notConfigured;
    try {
      return toLicenseCheckResult(await getLicensingStatus(s.client.http, { license_key, hardware_id }));
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) return refusal;
      throw error;
    }
  },
);
