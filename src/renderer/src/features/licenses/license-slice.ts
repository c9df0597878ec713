import { t } from '@lingui/core/macro';
import { createSlice, isAnyOf, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { Activation, FeatureUsage } from '../../../../shared/api/licenses';
import type { Plan, PlanFeature } from '../../../../shared/api/plans';
import type { LicenseCheckResult } from '../../../../shared/bridge';
import type { ApiFailure } from '../../lib/api-errors';
import type { AsyncStatus } from '../../lib/create-app-thunk';
import { sessionEnded } from '../auth';
import { plansApi } from '../plans';
import { type LicenseRecord, licenseApi } from './licenses-endpoints';

export type { LicenseRecord } from './licenses-endpoints';

/** The user's licenses, the current one, its usage, features and status check. */
export interface LicenseState {
  licenses: LicenseRecord[];
  currentLicense: LicenseRecord | null;
  activationStatus: LicenseCheckResult | null;
  usageMetrics: { features: FeatureUsage[] } | null;
  featureStatus: Record<string, FeatureUsage>;
  allFeatures: FeatureUsage[];
  availablePlans: Plan[];
  featureDefinitions: PlanFeature[];
  licenseActivations: Activation[];
  licenseStatus: LicenseCheckResult | null;
  status: AsyncStatus;
  error: string | null;
}

export const initialLicenseState: LicenseState = {
  licenses: [],
  currentLicense: null,
  activationStatus: null,
  usageMetrics: null,
  featureStatus: {},
  allFeatures: [],
  availablePlans: [],
  featureDefinitions: [],
  licenseActivations: [],
  licenseStatus: null,
  status: 'idle',
  error: null,
};

/** Activation: the result becomes the current license and is merged into the list by license_id. */
function mergeLicense(state: LicenseState, license: LicenseRecord) {
  state.currentLicense = license;
  const index = state.licenses.findIndex((item) => item.license_id === license.license_id);
  if (index >= 0) state.licenses[index] = license;
  else state.licenses.push(license);
}

/** The other license actions update the current license and replace it in the list if present. */
function replaceLicense(state: LicenseState, license: LicenseRecord) {
  state.currentLicense = license;
  const index = state.licenses.findIndex((item) => item.license_id === license.license_id);
  if (index >= 0) state.licenses[index] = license;
}

const setFeature = (state: LicenseState, feature: FeatureUsage) => {
  state.featureStatus[feature.feature_id] = feature;
  const metrics = state.usageMetrics?.features;
  const index = metrics?.findIndex((item) => item.feature_id === feature.feature_id) ?? -1;
  if (metrics && index >= 0) metrics[index] = feature;
};

const {
  listMyLicenses,
  getMyLicense,
  activateLicense,
  activateSeat,
  activateBaseLicense,
  validateLicense,
  deactivateLicense,
  getLicenseUsage,
  updateLicenseUsage,
  trackFeatureUsage,
  checkFeatureAvailability,
  getLicenseFeatures,
  activatePlan,
  getCurrentPlan,
  changePlan,
  checkLicenseStatus,
} = licenseApi.endpoints;
const { getPublicPlans } = plansApi.endpoints;

/** The calls whose progress the slice's `status` and `error` follow. */
const tracked = [
  listMyLicenses,
  getMyLicense,
  activateLicense,
  activateSeat,
  activateBaseLicense,
  validateLicense,
  deactivateLicense,
  getLicenseUsage,
  updateLicenseUsage,
  trackFeatureUsage,
  checkFeatureAvailability,
  getLicenseFeatures,
  getPublicPlans,
  activatePlan,
  getCurrentPlan,
  changePlan,
  checkLicenseStatus,
] as const;

type Rejection = UnknownAction & {
  payload?: ApiFailure;
  error: { message?: string };
  meta: { condition: boolean };
};

/**
 * A call that failed. A read answered from the cache is also reported as rejected (with
 * `meta.condition`), without a pending action before it: that is not a failure.
 */
const failedCall =
  (match: (action: unknown) => boolean) =>
  (action: unknown): action is Rejection =>
    match(action) && !(action as Rejection).meta.condition;

const isPending = isAnyOf(...tracked.map((endpoint) => endpoint.matchPending));
const isFulfilled = isAnyOf(...tracked.map((endpoint) => endpoint.matchFulfilled));
const isRejected = failedCall(isAnyOf(...tracked.map((endpoint) => endpoint.matchRejected)));
const isStatusCheckRejected = failedCall(checkLicenseStatus.matchRejected);

export const licenseSlice = createSlice({
  name: 'license',
  initialState: initialLicenseState,
  reducers: {
    setCurrentLicense(state, action: PayloadAction<LicenseRecord | null>) {
      state.currentLicense = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(listMyLicenses.matchFulfilled, (state, action) => {
        state.licenses = action.payload;
      })
      .addMatcher(getMyLicense.matchFulfilled, (state, action) => {
        replaceLicense(state, action.payload);
        state.licenseActivations = action.payload.activations ?? [];
      })
      .addMatcher(deactivateLicense.matchFulfilled, (state, action) => {
        replaceLicense(state, action.payload);
        state.activationStatus = {
          valid: false,
          status: 'deactivated',
          // In the language shown when it happened (it is shown as this machine's status).
          message: t`License deactivated on this device`,
        };
      })
      .addMatcher(isAnyOf(activateLicense.matchFulfilled, activateSeat.matchFulfilled), (state, action) => {
        const {
          activation: _activation,
          lease: _lease,
          lease_expires_at: _expires,
          message,
          ...license
        } = action.payload;
        mergeLicense(state, license);
        state.activationStatus = { valid: true, status: license.status, message };
      })
      .addMatcher(validateLicense.matchFulfilled, (state, action) => {
        state.activationStatus = action.payload;
      })
      .addMatcher(getLicenseUsage.matchFulfilled, (state, action) => {
        state.usageMetrics = action.payload.usage_info;
      })
      .addMatcher(checkFeatureAvailability.matchFulfilled, (state, action) =>
        setFeature(state, action.payload),
      )
      .addMatcher(getLicenseFeatures.matchFulfilled, (state, action) => {
        state.allFeatures = action.payload;
      })
      .addMatcher(getPublicPlans.matchFulfilled, (state, action) => {
        state.availablePlans = action.payload;
        const definitions = new Map<string, PlanFeature>();
        for (const plan of action.payload)
          for (const feature of plan.features) definitions.set(feature.feature_id, feature);
        state.featureDefinitions = [...definitions.values()];
      })
      .addMatcher(getCurrentPlan.matchFulfilled, (state, action) => {
        // The answer is `{ plan, license }`: the license that gives the plan becomes the current one.
        if (action.payload?.license) replaceLicense(state, action.payload.license);
      })
      .addMatcher(changePlan.matchFulfilled, (state, action) => {
        // A plan change moves the current license to the new plan and subscription.
        if (state.currentLicense?.license_id === action.payload.license_id) {
          state.currentLicense.plan_id = action.payload.plan_id;
          state.currentLicense.subscription_id = action.payload.subscription_id;
          state.currentLicense.plan = action.payload.plan;
        }
        const listed = state.licenses.find((item) => item.license_id === action.payload.license_id);
        if (listed) {
          listed.plan_id = action.payload.plan_id;
          listed.subscription_id = action.payload.subscription_id;
          listed.plan = action.payload.plan;
        }
      })
      .addMatcher(checkLicenseStatus.matchFulfilled, (state, action) => {
        const result = action.payload;
        state.licenseStatus = result;
        const current = state.currentLicense;
        if (current && (!result.license_id || result.license_id === current.license_id)) {
          current.isValid = result.valid;
          current.statusMessage = result.message;
        }
      })
      .addMatcher(isStatusCheckRejected, (state, action) => {
        state.licenseStatus = {
          valid: false,
          status: 'error',
          message: action.payload?.message ?? action.error.message ?? '',
        };
      })
      .addMatcher(sessionEnded, () => initialLicenseState)
      .addMatcher(
        isAnyOf(activateBaseLicense.matchFulfilled, activatePlan.matchFulfilled),
        (state, action) => {
          mergeLicense(state, action.payload);
          state.activationStatus = {
            valid: true,
            status: action.payload.status,
            message: t`License activated`,
          };
        },
      )
      .addMatcher(
        isAnyOf(updateLicenseUsage.matchFulfilled, trackFeatureUsage.matchFulfilled),
        (state, action) => setFeature(state, action.payload.feature),
      )
      .addMatcher(isPending, (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addMatcher(isFulfilled, (state) => {
        state.status = 'succeeded';
      })
      .addMatcher(isRejected, (state, action) => {
        state.status = 'failed';
        state.error = action.payload?.message ?? action.error.message ?? null;
      });
  },
});

export const { setCurrentLicense } = licenseSlice.actions;
export const licenseReducer = licenseSlice.reducer;

/** Before the first action after injection the state has no `license` yet: it reads as the initial state. */
type WithLicense = { license?: LicenseState };
export const selectLicenseState = (state: WithLicense) => state.license ?? initialLicenseState;
export const selectLicenses = (state: WithLicense) => selectLicenseState(state).licenses;
export const selectCurrentLicense = (state: WithLicense) => selectLicenseState(state).currentLicense;
export const selectLicenseStatus = (state: WithLicense) => selectLicenseState(state).licenseStatus;
