import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type { Activation, FeatureUsage, License } from '../../../../shared/api/licenses';
import type { Plan, PlanFeature } from '../../../../shared/api/plans';
import type { LicenseCheckResult } from '../../../../shared/bridge';
import { rootReducer } from '../../app/root-reducer';
import type { AsyncStatus } from '../../lib/create-app-thunk';
import { logoutUser, sessionCleared } from '../auth/auth-slice';
import {
  activateBaseLicense,
  activateLicense,
  activatePlan,
  changePlan,
  checkFeatureAvailability,
  checkLicenseStatus,
  deactivateLicense,
  fetchAvailablePlans,
  fetchCurrentPlan,
  fetchLicense,
  fetchLicenseFeatures,
  fetchLicenses,
  fetchLicenseUsage,
  trackFeatureUsage,
  updateLicenseUsage,
  validateLicense,
} from './license-thunks';

export * from './license-thunks';

/** A licence plus what a local status check found. */
export type LicenseRecord = License & { isValid?: boolean; statusMessage?: string };

/** The user's licences, the current one, its usage, features and status check. */
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

/** Activation: the result becomes the current licence and is merged into the list by license_id. */
function mergeLicence(state: LicenseState, licence: LicenseRecord) {
  state.currentLicense = licence;
  const index = state.licenses.findIndex((item) => item.license_id === licence.license_id);
  if (index >= 0) state.licenses[index] = licence;
  else state.licenses.push(licence);
}

/** The other licence actions update the current licence and replace it in the list if present. */
function replaceLicence(state: LicenseState, licence: LicenseRecord) {
  state.currentLicense = licence;
  const index = state.licenses.findIndex((item) => item.license_id === licence.license_id);
  if (index >= 0) state.licenses[index] = licence;
}

const setFeature = (state: LicenseState, feature: FeatureUsage) => {
  state.featureStatus[feature.feature_id] = feature;
  const metrics = state.usageMetrics?.features;
  const index = metrics?.findIndex((item) => item.feature_id === feature.feature_id) ?? -1;
  if (metrics && index >= 0) metrics[index] = feature;
};

const thunks = [
  fetchLicenses,
  fetchLicense,
  activateLicense,
  activateBaseLicense,
  validateLicense,
  deactivateLicense,
  fetchLicenseUsage,
  updateLicenseUsage,
  trackFeatureUsage,
  checkFeatureAvailability,
  fetchLicenseFeatures,
  fetchAvailablePlans,
  activatePlan,
  fetchCurrentPlan,
  changePlan,
  checkLicenseStatus,
] as const;

const licenseSlice = createSlice({
  name: 'license',
  initialState: initialLicenseState,
  reducers: {
    setCurrentLicense(state, action: PayloadAction<LicenseRecord | null>) {
      state.currentLicense = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchLicenses.fulfilled, (state, action) => {
        state.licenses = action.payload;
      })
      .addCase(fetchLicense.fulfilled, (state, action) => {
        replaceLicence(state, action.payload);
        state.licenseActivations = action.payload.activations ?? [];
      })
      .addCase(deactivateLicense.fulfilled, (state, action) => {
        replaceLicence(state, action.payload);
        state.activationStatus = {
          valid: false,
          status: 'deactivated',
          message: 'License deactivated on this device',
        };
      })
      .addCase(activateLicense.fulfilled, (state, action) => {
        const {
          activation: _activation,
          lease: _lease,
          lease_expires_at: _expires,
          message,
          ...licence
        } = action.payload;
        mergeLicence(state, licence);
        state.activationStatus = { valid: true, status: licence.status, message };
      })
      .addCase(validateLicense.fulfilled, (state, action) => {
        state.activationStatus = action.payload;
      })
      .addCase(fetchLicenseUsage.fulfilled, (state, action) => {
        state.usageMetrics = action.payload.usage_info;
      })
      .addCase(checkFeatureAvailability.fulfilled, (state, action) => setFeature(state, action.payload))
      .addCase(fetchLicenseFeatures.fulfilled, (state, action) => {
        state.allFeatures = action.payload;
      })
      .addCase(fetchAvailablePlans.fulfilled, (state, action) => {
        state.availablePlans = action.payload;
        const definitions = new Map<string, PlanFeature>();
        for (const plan of action.payload)
          for (const feature of plan.features) definitions.set(feature.feature_id, feature);
        state.featureDefinitions = [...definitions.values()];
      })
      .addCase(fetchCurrentPlan.fulfilled, (state, action) => {
        // The answer is `{ plan, license }`: the licence that gives the plan becomes the current one.
        if (action.payload?.license) replaceLicence(state, action.payload.license);
      })
      .addCase(changePlan.fulfilled, (state, action) => {
        // A plan change moves the current licence to the new plan and subscription.
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
      .addCase(checkLicenseStatus.fulfilled, (state, action) => {
        const result = action.payload;
        state.licenseStatus = result;
        const current = state.currentLicense;
        if (current && (!result.license_id || result.license_id === current.license_id)) {
          current.isValid = result.valid;
          current.statusMessage = result.message;
        }
      })
      .addCase(checkLicenseStatus.rejected, (state, action) => {
        state.licenseStatus = {
          valid: false,
          status: 'error',
          message: action.payload ?? action.error.message ?? '',
        };
      })
      .addCase(logoutUser.fulfilled, () => initialLicenseState)
      .addCase(logoutUser.rejected, () => initialLicenseState)
      .addCase(sessionCleared, () => initialLicenseState)
      .addMatcher(isAnyOf(activateBaseLicense.fulfilled, activatePlan.fulfilled), (state, action) => {
        mergeLicence(state, action.payload);
        state.activationStatus = { valid: true, status: action.payload.status, message: 'License activated' };
      })
      .addMatcher(isAnyOf(updateLicenseUsage.fulfilled, trackFeatureUsage.fulfilled), (state, action) =>
        setFeature(state, action.payload.feature),
      )
      .addMatcher(isAnyOf(...thunks.map((thunk) => thunk.pending)), (state) => {
        state.status = 'loading';
        state.error = null;
      })
      .addMatcher(isAnyOf(...thunks.map((thunk) => thunk.fulfilled)), (state) => {
        state.status = 'succeeded';
      })
      .addMatcher(isAnyOf(...thunks.map((thunk) => thunk.rejected)), (state, action) => {
        state.status = 'failed';
        state.error = (action.payload as string | undefined) ?? action.error.message ?? null;
      });
  },
});

export const { setCurrentLicense } = licenseSlice.actions;
export const licenseReducer = licenseSlice.reducer;

// Importing this module adds `license` to the store (it is not in the first download).
rootReducer.inject(licenseSlice);

/** Before the first action after injection the state has no `license` yet: it reads as the initial state. */
type WithLicense = { license?: LicenseState };
export const selectLicenseState = (state: WithLicense) => state.license ?? initialLicenseState;
export const selectLicenses = (state: WithLicense) => selectLicenseState(state).licenses;
export const selectCurrentLicense = (state: WithLicense) => selectLicenseState(state).currentLicense;
export const selectLicenseStatus = (state: WithLicense) => selectLicenseState(state).licenseStatus;
