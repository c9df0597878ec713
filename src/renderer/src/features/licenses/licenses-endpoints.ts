import { t } from '@lingui/core/macro';
import type { z } from 'zod';
import {
  type ActivationResult,
  type FeatureUsage,
  type License,
  type LicenseRefusal,
  type LicenseStatusAnswer,
  type licenseUsageSchema,
  MASKED_LICENSE_KEY,
  type Release,
  type trackUsageResponseSchema,
  type TrialStarted,
} from '../../../../shared/api/licenses';
import type { PaymentOrder } from '../../../../shared/api/payments';
import type { Plan } from '../../../../shared/api/plans';
import {
  type AppInfo,
  type LicenseCheckResult,
  toLicenseCheckResult,
  type UsageLeft,
} from '../../../../shared/bridge';
import { licenseMessages } from '../../../../shared/screen-messages';
import { pathWith } from '../../../../shared/routes';
import type { FloatingMemberSeat, FloatingSeatAnswer } from '../../../../shared/api/floating';
import {
  floatingApiPaths,
  licensesApiPaths,
  licensingApiPaths,
  organisationsApiPaths,
} from '../../../../shared/api-paths';
import { recordEndpointArea } from '../../lib/api-actions';
import { api, servicesOf } from '../../lib/api';
import {
  type ApiFailure,
  attempt,
  failureMessage,
  isHttpError,
  serverDetail,
  toApiFailure,
} from '../../lib/api-errors';
import { describeThisDevice, type DeviceDescription } from './this-device';

/** A license plus what a local status check found. */
export type LicenseRecord = License & { isValid?: boolean; statusMessage?: string };

// Answers are read as the shared schemas' types: the server writes every response through them.
export type LicenseUsage = z.infer<typeof licenseUsageSchema>;
export type TrackUsageResult = z.infer<typeof trackUsageResponseSchema>;

/** `GET /licenses/current-plan` answers the plan and the license that gives it (either may be null). */
export interface CurrentPlan {
  plan: Plan | null;
  license: License | null;
}

/** What the platform knows about this machine (from main in the desktop, from the browser on the web). */
export interface MachineDetails {
  kind: 'web' | 'desktop';
  hardwareId: string;
  licenseKey: string | null;
  appInfo: AppInfo | null;
}

export interface ActivateLicenseArgs extends Partial<DeviceDescription> {
  license_key: string;
}

export interface TrackUsageArgs {
  licenseId: string;
  featureId: string;
  usageAmount?: number;
  usageData?: Record<string, unknown>;
}

/**
 * The fallbacks of the download calls, shown when the server gives no message. Each is read when
 * it is shown (a getter), so it is in the language shown then.
 */
export const downloadMessages = {
  get fetchReleasesFailed() {
    return t`Failed to fetch downloads`;
  },
  get downloadFailed() {
    return t`The download failed. Try again.`;
  },
  get checksumUnavailable() {
    return t`This browser cannot compute checksums here (Web Crypto needs HTTPS).`;
  },
};

/** This machine's fallbacks, read when shown like the download's. */
export const machineMessages = {
  /** Shown when naming a machine fails without the server saying why. */
  get renameFailed() {
    return t`Could not rename the machine`;
  },
  get unreadable() {
    return t`Could not read this machine’s details`;
  },
  get usageUnreadable() {
    return t`Could not read what this machine may still use`;
  },
};

/** No stored key (or machine id) is answered here, without asking anyone. */
export const notConfigured: LicenseCheckResult = {
  valid: false,
  status: 'not_configured',
  message: licenseMessages.notConfigured,
  requires_activation: true,
};

const licensePath = (path: string, id: string) => pathWith(path, { id });

/**
 * The list, the current plan and each license's own reads (details, usage, features) are tagged
 * apart: an answer that is the license itself replaces its cached details, while the list and the
 * current plan are read again.
 */
const LIST = { type: 'License', id: 'LIST' } as const;
const CURRENT_PLAN = { type: 'License', id: 'CURRENT_PLAN' } as const;
const oneLicense = (id: string) => ({ type: 'License', id }) as const;
/** This machine's stored key and its status check change with every activation. */
const THIS_MACHINE = 'ThisMachine' as const;

/** A failure this client found itself (the answer was missing or of another shape). */
const refused = (message: string): { error: ApiFailure } => ({ error: { message, fieldErrors: {} } });

/** A 4xx license refusal is an answer (the key is not valid here), not a failed check. */
function refusalOf(error: unknown): LicenseCheckResult | null {
  // The server writes refusals through the shared `licenseRefusalSchema`; only what is read is checked.
  const data: unknown = isHttpError(error) ? error.response?.data : undefined;
  if (typeof data !== 'object' || data === null) return null;
  const { valid, status, message, requires_activation, resumes_at } = data as Partial<
    Record<keyof LicenseRefusal, unknown>
  >;
  if (valid !== false || typeof status !== 'string' || !status || typeof message !== 'string') return null;
  if (requires_activation !== undefined && typeof requires_activation !== 'boolean') return null;
  return {
    valid: false,
    status: status as NonNullable<LicenseRefusal['status']>,
    message,
    requires_activation,
    // A paused license: when its subscription resumes (the Support page's steps say it).
    ...(typeof resumes_at === 'string' ? { resumes_at } : {}),
  };
}

/** Base activation checks the answer for the fields it keeps before taking it as a license. */
const isActivatedLicense = (value: unknown): value is License =>
  !!value &&
  typeof value === 'object' &&
  typeof (value as License).license_id === 'string' &&
  typeof (value as License).license_key === 'string';

/** How an activation names this machine; a machine that cannot describe itself is still activated. */
const describeDevice = (platform: Parameters<typeof describeThisDevice>[0]) =>
  describeThisDevice(platform).catch((): Partial<DeviceDescription> => ({}));

/** This machine as an activation or a checkout names it: its description and its hardware id. */
const thisMachine = (
  platform: Parameters<typeof describeThisDevice>[0] & { getHardwareId(): Promise<string> },
) => Promise.all([describeDevice(platform), platform.getHardwareId()]);

export const licenseApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      listMyLicenses: build.query<LicenseRecord[], void>({
        query: () => ({ url: licensesApiPaths.list }),
        extraOptions: { fallback: licenseMessages.fetchLicensesFailed },
        providesTags: [LIST],
      }),

      getMyLicense: build.query<LicenseRecord, string>({
        query: (id) => ({ url: licensePath(licensesApiPaths.detail, id) }),
        extraOptions: { fallback: licenseMessages.fetchLicenseFailed },
        providesTags: (_result, _error, id) => [oneLicense(id)],
      }),

      /** Activates THIS machine (its hardware id from the platform) and keeps the key on it. */
      activateLicense: build.mutation<ActivationResult, ActivateLicenseArgs>({
        queryFn: (args, queryApi, options) =>
          attempt(async () => {
            const { platform, client } = servicesOf(queryApi);
            const [device, hardware_id] = await thisMachine(platform);
            const body = { ...device, ...args, hardware_id };
            const result = (await client.http.post<ActivationResult>(licensesApiPaths.activate, body)).data;
            await platform.setLicenseKey(result.license_key);
            return result;
          }, options),
        extraOptions: { fallback: licenseMessages.activationFailed },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN, THIS_MACHINE] : []),
        onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
          const answer = await settled(queryFulfilled);
          if (!answer) return;
          const { activation: _a, lease: _l, lease_expires_at: _e, message: _m, ...license } = answer;
          dispatch(keepLicense(license));
        },
      }),

      /**
       * Activates THIS machine on the member's seat of an organisation's license, by being signed in:
       * no key is typed. The answer's key (this machine's own seat key, never the organisation's)
       * is kept on the platform, which checks with it, and is masked in what the portal keeps.
       */
      activateSeat: build.mutation<ActivationResult, { organisationId: string }>({
        queryFn: ({ organisationId }, queryApi, options) =>
          attempt(async () => {
            const { platform, client } = servicesOf(queryApi);
            const [device, hardware_id] = await thisMachine(platform);
            const path = pathWith(organisationsApiPaths.activateSeat, { organisationId });
            const result = (await client.http.post<ActivationResult>(path, { ...device, hardware_id })).data;
            await platform.setLicenseKey(result.license_key);
            return { ...result, license_key: MASKED_LICENSE_KEY };
          }, options),
        extraOptions: { fallback: licenseMessages.activationFailed },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN, THIS_MACHINE] : []),
        onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
          const answer = await settled(queryFulfilled);
          if (!answer) return;
          const { activation: _a, lease: _l, lease_expires_at: _e, message: _m, ...license } = answer;
          dispatch(keepLicense(license));
        },
      }),

      /**
       * A floating organisation's seat for this machine, signed in: main keeps the machine's own key
       * the answer carries and holds the seat by heartbeats from the next check on. Never the key.
       */
      checkoutOrganisationFloatingSeat: build.mutation<
        Omit<FloatingMemberSeat, 'seat_key' | 'lease'>,
        { organisationId: string }
      >({
        queryFn: ({ organisationId }, queryApi, options) =>
          attempt(async () => {
            const { platform, client } = servicesOf(queryApi);
            const [device, hardware_id] = await thisMachine(platform);
            const path = pathWith(floatingApiPaths.memberCheckout, { organisationId });
            const body = { hardware_id, ...(device.device_name ? { device_name: device.device_name } : {}) };
            const {
              seat_key,
              lease: _lease,
              ...seat
            } = (await client.http.post<FloatingMemberSeat>(path, body)).data;
            await platform.setLicenseKey(seat_key);
            return seat;
          }, options),
        extraOptions: { fallback: licenseMessages.activationFailed },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN, THIS_MACHINE] : []),
      }),

      /**
       * A personal floating license on this machine: a seat of its pool checked out with its key (a
       * floating license is never activated), the key kept on the platform, whose main holds the
       * seat by heartbeats from the next check on.
       */
      checkoutFloatingSeat: build.mutation<Omit<FloatingSeatAnswer, 'lease'>, { license_key: string }>({
        queryFn: ({ license_key }, queryApi, options) =>
          attempt(async () => {
            const { platform, client } = servicesOf(queryApi);
            const [device, hardware_id] = await thisMachine(platform);
            const body = {
              license_key,
              hardware_id,
              ...(device.device_name ? { device_name: device.device_name } : {}),
            };
            const { lease: _lease, ...seat } = (
              await client.http.post<FloatingSeatAnswer>(floatingApiPaths.checkout, body)
            ).data;
            await platform.setLicenseKey(license_key);
            return seat;
          }, options),
        extraOptions: { fallback: licenseMessages.activationFailed },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN, THIS_MACHINE] : []),
      }),

      /** The free Base license on this machine: the server's detail is preferred, and the answer checked. */
      activateBaseLicense: build.mutation<License, Partial<DeviceDescription> | void>({
        queryFn: async (args, queryApi) => {
          const { platform, client } = servicesOf(queryApi);
          let answer: unknown;
          try {
            const [device, hardware_id] = await thisMachine(platform);
            const body = { ...device, ...(args ?? {}), hardware_id };
            answer = (await client.http.post<unknown>(licensesApiPaths.activateBase, body)).data;
          } catch (error) {
            if (isHttpError(error) && !error.response) return refused(licenseMessages.noResponse);
            return {
              error: toApiFailure(error, {
                fallback: licenseMessages.baseActivationFailed,
                pickMessage: serverDetail,
              }),
            };
          }
          if (answer === undefined || answer === null || answer === '')
            return refused(licenseMessages.noResponse);
          if (!isActivatedLicense(answer)) return refused(licenseMessages.invalidResponseFormat);
          return attempt(
            async () => {
              await platform.setLicenseKey(answer.license_key);
              return answer;
            },
            { fallback: licenseMessages.baseActivationFailed, pickMessage: serverDetail },
          );
        },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN, THIS_MACHINE] : []),
        onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
          const license = await settled(queryFulfilled);
          if (license) dispatch(keepLicense(license));
        },
      }),

      /** POST /licenses/validate for a key (the stored one by default) on this machine. */
      validateLicense: build.mutation<LicenseCheckResult, { license_key?: string } | void>({
        queryFn: (args, queryApi, options) =>
          attempt(async (): Promise<LicenseCheckResult> => {
            const { platform, client } = servicesOf(queryApi);
            const license_key = args?.license_key ?? (await platform.getLicenseKey());
            if (!license_key) return notConfigured;
            try {
              const body = { license_key, hardware_id: await platform.getHardwareId() };
              const answer = (await client.http.post<LicenseStatusAnswer>(licensesApiPaths.validate, body))
                .data;
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
          }, options),
        extraOptions: { fallback: licenseMessages.validationFailed },
      }),

      /** Gives up a seat: the activation named, else this machine's own. */
      deactivateLicense: build.mutation<LicenseRecord, { licenseId: string; activationId?: string }>({
        queryFn: ({ licenseId, activationId }, queryApi, options) =>
          attempt(async () => {
            const { platform, client } = servicesOf(queryApi);
            const body = activationId
              ? { activation_id: activationId }
              : { hardware_id: await platform.getHardwareId() };
            return (
              await client.http.post<License>(licensePath(licensesApiPaths.deactivate, licenseId), body)
            ).data;
          }, options),
        extraOptions: { fallback: licenseMessages.deactivationFailed },
        invalidatesTags: (result, _error, { activationId }) =>
          result ? [LIST, CURRENT_PLAN, ...(activationId ? [] : [THIS_MACHINE])] : [],
        onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
          const license = await settled(queryFulfilled);
          if (license) dispatch(keepLicense(license));
        },
      }),

      /** Names a machine of the license (null drops the name); answers the license with its machines. */
      renameMachine: build.mutation<
        LicenseRecord,
        { licenseId: string; activationId: string; label: string | null }
      >({
        query: ({ licenseId, activationId, label }) => ({
          url: pathWith(licensesApiPaths.activation, { id: licenseId, activationId }),
          method: 'PATCH',
          body: { label },
        }),
        extraOptions: {
          get fallback() {
            return machineMessages.renameFailed;
          },
        },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN] : []),
        onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
          const license = await settled(queryFulfilled);
          if (license) dispatch(keepLicense(license));
        },
      }),

      getLicenseUsage: build.query<LicenseUsage, { licenseId: string; days?: number }>({
        query: ({ licenseId, days }) => ({
          url: licensePath(licensesApiPaths.usage, licenseId),
          params: { days },
        }),
        extraOptions: { fallback: licenseMessages.fetchUsageFailed },
        providesTags: (_result, _error, { licenseId }) => [oneLicense(licenseId)],
      }),

      /**
       * POST /licenses/{id}/usage/packs: an order for credit packs of a feature, paid through the
       * same checkout as a plan's (its price comes from the plan, never from the page).
       */
      buyCreditPacks: build.mutation<PaymentOrder, { licenseId: string; feature: string; quantity: number }>({
        query: ({ licenseId, feature, quantity }) => ({
          url: licensePath(licensesApiPaths.usagePacks, licenseId),
          method: 'POST',
          body: { feature, quantity },
        }),
        extraOptions: {
          get fallback() {
            return t`Could not start the checkout for the credits`;
          },
        },
      }),

      /** POST /licenses/{id}/usage from the license's usage view. */
      updateLicenseUsage: build.mutation<TrackUsageResult, TrackUsageArgs>({
        query: trackUsage,
        extraOptions: { fallback: licenseMessages.updateUsageFailed },
        invalidatesTags: (result, _error, { licenseId }) => (result ? [oneLicense(licenseId)] : []),
      }),

      /** Feature usage tracking: usageAmount defaults to 1 and usageData to {}. */
      trackFeatureUsage: build.mutation<TrackUsageResult, TrackUsageArgs>({
        query: trackUsage,
        extraOptions: { fallback: licenseMessages.trackUsageFailed },
        invalidatesTags: (result, _error, { licenseId }) => (result ? [oneLicense(licenseId)] : []),
      }),

      checkFeatureAvailability: build.query<FeatureUsage, { licenseId: string; featureId: string }>({
        query: ({ licenseId, featureId }) => ({
          url: pathWith(licensesApiPaths.feature, { id: licenseId, featureId }),
        }),
        extraOptions: { fallback: licenseMessages.featureCheckFailed },
        providesTags: (_result, _error, { licenseId }) => [oneLicense(licenseId)],
      }),

      getLicenseFeatures: build.query<FeatureUsage[], string>({
        query: (licenseId) => ({ url: licensePath(licensesApiPaths.features, licenseId) }),
        transformResponse: (answer: { features: FeatureUsage[] }) => answer.features,
        extraOptions: { fallback: licenseMessages.fetchFeaturesFailed },
        providesTags: (_result, _error, licenseId) => [oneLicense(licenseId)],
      }),

      /** A plan activated for this user; its key is kept on this machine. */
      activatePlan: build.mutation<License, { planId: string; userInfo?: Record<string, unknown> }>({
        queryFn: ({ planId, userInfo = {} }, queryApi, options) =>
          attempt(async () => {
            const { platform, client } = servicesOf(queryApi);
            const body = { userInfo, planId };
            const license = (await client.http.post<License>(licensesApiPaths.activatePlan, body)).data;
            await platform.setLicenseKey(license.license_key);
            return license;
          }, options),
        extraOptions: { fallback: licenseMessages.activatePlanFailed },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN, THIS_MACHINE] : []),
        onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
          const license = await settled(queryFulfilled);
          if (license) dispatch(keepLicense(license));
        },
      }),

      /**
       * Starts the signed-in customer's free trial of a plan. In the desktop it activates this
       * machine too (a machine has one trial of a plan); on the web the license is activated later.
       */
      startTrial: build.mutation<TrialStarted, { planId: string }>({
        queryFn: ({ planId }, queryApi, options) =>
          attempt(async () => {
            const { platform, client } = servicesOf(queryApi);
            const machine =
              platform.kind === 'desktop'
                ? { ...(await describeDevice(platform)), hardware_id: await platform.getHardwareId() }
                : {};
            const body = { plan_id: planId, ...machine };
            const started = (await client.http.post<TrialStarted>(licensesApiPaths.trials, body)).data;
            if (platform.kind === 'desktop') await platform.setLicenseKey(started.license_key);
            return started;
          }, options),
        extraOptions: { fallback: licenseMessages.startTrialFailed },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN, THIS_MACHINE] : []),
      }),

      getCurrentPlan: build.query<CurrentPlan, void>({
        query: () => ({ url: licensesApiPaths.currentPlan }),
        extraOptions: { fallback: licenseMessages.fetchCurrentPlanFailed },
        providesTags: [CURRENT_PLAN],
      }),

      changePlan: build.mutation<License, { licenseId: string; planId: string }>({
        query: ({ licenseId, planId }) => ({
          url: licensePath(licensesApiPaths.plan, licenseId),
          method: 'PUT',
          body: { planId },
        }),
        extraOptions: { fallback: licenseMessages.activatePlanFailed },
        invalidatesTags: (result) => (result ? [LIST, CURRENT_PLAN] : []),
        onQueryStarted: async (_args, { dispatch, queryFulfilled }) => {
          const license = await settled(queryFulfilled);
          if (license) dispatch(keepLicense(license));
        },
      }),

      /**
       * GET /licensing/status for the stored key on this machine. The desktop's main process checks
       * with the API key alone (no sign-in) and keeps the offline lease.
       */
      checkLicenseStatus: build.query<LicenseCheckResult, void>({
        queryFn: (_args, queryApi, options) =>
          attempt(async (): Promise<LicenseCheckResult> => {
            const { platform, client } = servicesOf(queryApi);
            if (platform.checkLicenseStatus) return platform.checkLicenseStatus();
            const license_key = await platform.getLicenseKey();
            const hardware_id = license_key ? await platform.getHardwareId() : null;
            if (!license_key || !hardware_id) return notConfigured;
            try {
              const params = { license_key, hardware_id };
              const answer = (
                await client.http.get<LicenseStatusAnswer>(licensingApiPaths.status, { params })
              ).data;
              return toLicenseCheckResult(answer);
            } catch (error) {
              const refusal = refusalOf(error);
              if (refusal) return refusal;
              throw error;
            }
          }, options),
        extraOptions: { fallback: licenseMessages.statusCheckFailed },
        providesTags: [THIS_MACHINE],
      }),

      /** This machine's id, stored key and desktop details, read from the platform (no server call). */
      getThisMachine: build.query<MachineDetails, void>({
        queryFn: (_args, queryApi, options) =>
          attempt(async () => {
            const { platform } = servicesOf(queryApi);
            const [hardwareId, licenseKey, appInfo] = await Promise.all([
              platform.getHardwareId(),
              platform.getLicenseKey(),
              platform.getAppInfo(),
            ]);
            return { kind: platform.kind, hardwareId, licenseKey, appInfo };
          }, options),
        // The platform's own words (e.g. main's "machine id unavailable") say what went wrong.
        extraOptions: {
          get fallback() {
            return machineMessages.unreadable;
          },
          pickMessage: failureMessage,
        },
        providesTags: [THIS_MACHINE],
      }),

      /**
       * What this machine may still use of each metered feature, from the desktop's main process
       * (the server's numbers online, the lease's offline allowance offline, and what waits to
       * upload); null on the web, which has no such thing. A license check refreshes it.
       */
      getThisMachineUsage: build.query<UsageLeft | null, void>({
        queryFn: (_args, queryApi, options) =>
          attempt(async () => {
            const { usage } = servicesOf(queryApi).platform;
            return usage ? usage.left() : null;
          }, options),
        extraOptions: {
          get fallback() {
            return machineMessages.usageUnreadable;
          },
          pickMessage: failureMessage,
        },
        providesTags: [THIS_MACHINE],
      }),

      /**
       * `GET /licenses/{id}/download`: the newest installer of each platform, with signed links.
       * The license's status is part of the argument: what is offered changes with it.
       */
      getReleases: build.query<Release[], { licenseId: string; status: License['status'] }>({
        queryFn: async ({ licenseId }, _queryApi, _options, baseQuery) => {
          const result = await baseQuery({ url: licensePath(licensesApiPaths.download, licenseId) });
          // Nothing published yet is an empty list, not a failure.
          if (result.error)
            return result.error.code === 'release_not_found' ? { data: [] } : { error: result.error };
          const answer = result.data as { releases?: unknown } | null;
          return { data: Array.isArray(answer?.releases) ? (answer.releases as Release[]) : [] };
        },
        extraOptions: {
          get fallback() {
            return downloadMessages.fetchReleasesFailed;
          },
        },
        providesTags: (_result, _error, { licenseId }) => [{ type: 'Download', id: licenseId }],
      }),
    };
    // Platform reads are not the user acting on licenses: only the server calls count as activity.
    recordEndpointArea(
      'license',
      Object.keys(endpoints).filter((name) => name !== 'getThisMachine' && name !== 'getThisMachineUsage'),
    );
    return endpoints;
  },
});

function trackUsage({ licenseId, featureId, usageAmount = 1, usageData = {} }: TrackUsageArgs) {
  return {
    url: licensePath(licensesApiPaths.usage, licenseId),
    method: 'POST' as const,
    body: { featureId, usageAmount, usageData },
  };
}

/** A write's answer once it succeeds; a failure is the hook's or `unwrap()`'s to report. */
async function settled<T>(fulfilled: Promise<{ data: T }>): Promise<T | null> {
  try {
    return (await fulfilled).data;
  } catch {
    return null;
  }
}

/**
 * An answer that is the license itself replaces its cached details, if they are cached: a second
 * read is not needed (the list and the current plan, which it may change, are read again).
 */
function keepLicense(license: License) {
  return licenseApi.util.updateQueryData('getMyLicense', license.license_id, () => license);
}

/** The user's licenses past the 60 s cache: for answers that need today's seat counts. */
export const refreshLicenses = () =>
  licenseApi.endpoints.listMyLicenses.initiate(undefined, { forceRefetch: true, subscribe: false });

/** A status check now, past the cache (after this machine's seat was taken or given up). */
export const recheckLicenseStatus = () =>
  licenseApi.endpoints.checkLicenseStatus.initiate(undefined, { forceRefetch: true, subscribe: false });

export const {
  useGetThisMachineUsageQuery,
  useListMyLicensesQuery,
  useGetMyLicenseQuery,
  useActivateLicenseMutation,
  useActivateSeatMutation,
  useCheckoutOrganisationFloatingSeatMutation,
  useCheckoutFloatingSeatMutation,
  useActivateBaseLicenseMutation,
  useStartTrialMutation,
  useDeactivateLicenseMutation,
  useRenameMachineMutation,
  useGetLicenseUsageQuery,
  useBuyCreditPacksMutation,
  useGetCurrentPlanQuery,
  useCheckLicenseStatusQuery,
  useGetThisMachineQuery,
  useGetReleasesQuery,
} = licenseApi;
