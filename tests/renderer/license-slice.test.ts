import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { licenseMessages } from '../../src/shared/screen-messages';
import { localStorageKeys } from '../../src/shared/storage-keys';
import { makeFullStore } from './support/store';
import { licenseApi } from '../../src/renderer/src/features/licenses';
import { activationResult, featureUsage, validLicenseStatus } from './support/api-answers';
import { FakeApi, problem, WITHOUT_MESSAGE } from './support/fake-api';
import { tabServices } from './support/services';
import { makeLicense, signedInTab } from './support/signed-in';

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

const signedIn = () => signedInTab(api);
const license = licenseApi.endpoints;

describe('License state', () => {
  it('license: activation replaces the current license, merges by license_id and stores the key locally', async () => {
    const { store, tab } = await signedIn();
    api.on('GET /licenses', () => ({ json: [makeLicense('L1'), makeLicense('L2')] }));
    await store.dispatch(license.listMyLicenses.initiate());
    api.on('POST /licenses/activate', () => ({ json: activationResult('L2', { activations_used: 1 }) }));
    await store.dispatch(license.activateLicense.initiate({ license_key: 'KEY-L2' })).unwrap();
    const state = store.getState().license;
    expect(state.licenses.map((item) => [item.license_id, item.activations_used])).toEqual([
      ['L1', 0],
      ['L2', 1],
    ]);
    expect(state.currentLicense?.license_id).toBe('L2');
    expect(tab.local.getItem(localStorageKeys.licenseKey)).toBe('KEY-L2');
    expect(JSON.parse(api.calls('POST /licenses/activate')[0]?.body ?? '{}').hardware_id).toBe(
      tab.local.getItem(localStorageKeys.hardwareId),
    );
  });

  it('license: a new license from base activation is appended to the list', async () => {
    const { store } = await signedIn();
    api.on('GET /licenses', () => ({ json: [makeLicense('L1')] }));
    await store.dispatch(license.listMyLicenses.initiate());
    api.on('POST /licenses/activate-base', () => ({ json: activationResult('L9') }));
    await store.dispatch(license.activateBaseLicense.initiate()).unwrap();
    expect(store.getState().license.licenses.map((item) => item.license_id)).toEqual(['L1', 'L9']);
  });

  it("base activation prefers the server's detail, and checks the answer", async () => {
    const { store } = await signedIn();
    api.on('POST /licenses/activate-base', () => ({
      status: 409,
      json: { detail: 'Already have a base license', message: 'Conflict', code: 'x' },
    }));
    expect((await store.dispatch(license.activateBaseLicense.initiate())).error?.message).toBe(
      'Already have a base license',
    );
    api.on('POST /licenses/activate-base', () => ({ status: 500, json: {}, offContract: WITHOUT_MESSAGE }));
    expect((await store.dispatch(license.activateBaseLicense.initiate())).error?.message).toBe(
      licenseMessages.baseActivationFailed,
    );
    api.on('POST /licenses/activate-base', () => ({
      json: { unexpected: true },
      offContract: 'an answer of another shape, which the client must refuse',
    }));
    expect((await store.dispatch(license.activateBaseLicense.initiate())).error?.message).toBe(
      licenseMessages.invalidResponseFormat,
    );
    api.on('POST /licenses/activate-base', () => ({
      status: 200,
      body: '',
      offContract: 'an empty answer, which the client must refuse',
    }));
    expect((await store.dispatch(license.activateBaseLicense.initiate())).error?.message).toBe(
      licenseMessages.noResponse,
    );
  });

  it("base activation with no answer from the server fails with 'No response received from server'", async () => {
    const { store } = await signedIn();
    api.on('POST /licenses/activate-base', (_request, response) => void response.socket?.destroy());
    expect((await store.dispatch(license.activateBaseLicense.initiate())).error?.message).toBe(
      licenseMessages.noResponse,
    );
  });

  it('license: deactivation and fetching one license update the current license and replace it in the list if present', async () => {
    const { store } = await signedIn();
    api.on('GET /licenses', () => ({ json: [makeLicense('L1')] }));
    await store.dispatch(license.listMyLicenses.initiate());
    api.on('POST /licenses/L1/deactivate', () => ({
      json: makeLicense('L1', { activations_used: 0, status: 'active' }),
    }));
    await store.dispatch(license.deactivateLicense.initiate({ licenseId: 'L1' }));
    api.on('GET /licenses/L7', () => ({ json: makeLicense('L7') }));
    await store.dispatch(license.getMyLicense.initiate('L7'));
    const state = store.getState().license;
    expect(state.currentLicense?.license_id).toBe('L7');
    expect(state.licenses.map((item) => item.license_id)).toEqual(['L1']);
  });

  it("license: a status check with no stored key reports not_configured locally ('No license configured')", async () => {
    const { store } = await signedIn();
    await store.dispatch(license.checkLicenseStatus.initiate());
    expect(store.getState().license.licenseStatus).toEqual({
      valid: false,
      status: 'not_configured',
      message: 'No license configured',
      requires_activation: true,
    });
    expect(api.calls('GET /licensing/status')).toHaveLength(0);
  });

  it('the status check sends license_key and hardware_id and marks the current license', async () => {
    const { store, tab } = await signedIn();
    tab.local.setItem(localStorageKeys.licenseKey, 'KEY-L1');
    api.on('GET /licenses/L1', () => ({ json: makeLicense('L1') }));
    await store.dispatch(license.getMyLicense.initiate('L1'));
    api.on('GET /licensing/status', () => ({
      json: validLicenseStatus('L1', { message: 'License is valid' }),
    }));
    await store.dispatch(license.checkLicenseStatus.initiate());
    const query = api.calls('GET /licensing/status')[0]?.query;
    expect(query?.get('license_key')).toBe('KEY-L1');
    expect(query?.get('hardware_id')).toBe(tab.local.getItem(localStorageKeys.hardwareId));
    expect(store.getState().license.currentLicense).toMatchObject({
      isValid: true,
      statusMessage: 'License is valid',
    });
  });

  it("license: a failed status check → invalid, status 'error', server message or 'Failed to check license status'", async () => {
    const { store, tab } = await signedIn();
    tab.local.setItem(localStorageKeys.licenseKey, 'KEY-L1');
    api.on('GET /licensing/status', () => problem(503, 'Licensing unavailable'));
    await store.dispatch(license.checkLicenseStatus.initiate());
    expect(store.getState().license.licenseStatus).toEqual({
      valid: false,
      status: 'error',
      message: 'Licensing unavailable',
    });
    api.on('GET /licensing/status', () => ({ status: 500, json: {}, offContract: WITHOUT_MESSAGE }));
    await store.dispatch(license.checkLicenseStatus.initiate());
    expect(store.getState().license.licenseStatus?.message).toBe(licenseMessages.statusCheckFailed);
  });

  it('license: a plan change updates the current license’s plan_id and subscription_id', async () => {
    const { store } = await signedIn();
    api.on('GET /licenses/L1', () => ({ json: makeLicense('L1') }));
    await store.dispatch(license.getMyLicense.initiate('L1'));
    api.on('PUT /licenses/L1/plan', () => ({
      json: makeLicense('L1', { plan_id: 'plan-pro', subscription_id: 'sub-1' }),
    }));
    await store.dispatch(license.changePlan.initiate({ licenseId: 'L1', planId: 'plan-pro' }));
    expect(store.getState().license.currentLicense).toMatchObject({
      plan_id: 'plan-pro',
      subscription_id: 'sub-1',
    });
  });

  it('usage metrics come from usage_info; feature status is keyed by feature_id', async () => {
    const { store } = await signedIn();
    const chat = featureUsage('F1', { used: 3 });
    api.on('GET /licenses/L1/usage', () => ({
      json: {
        license_id: 'L1',
        usage_info: { features: [chat] },
        overage: [],
        packs: [],
        history: [],
        currency: 'INR',
      },
    }));
    await store.dispatch(license.getLicenseUsage.initiate({ licenseId: 'L1' }));
    api.on('POST /licenses/L1/usage', () => ({
      json: { license_id: 'L1', recorded: 1, feature: { ...chat, used: 4 } },
    }));
    await store.dispatch(license.trackFeatureUsage.initiate({ licenseId: 'L1', featureId: 'F1' }));
    expect(JSON.parse(api.calls('POST /licenses/L1/usage')[0]?.body ?? '{}')).toEqual({
      featureId: 'F1',
      usageAmount: 1,
      usageData: {},
    });
    expect(store.getState().license.featureStatus.F1).toMatchObject({ used: 4 });
    expect(store.getState().license.usageMetrics?.features[0]).toMatchObject({ used: 4 });
  });

  it('license reads are cached for 60 s; a write invalidates them', async () => {
    const { store } = await signedIn();
    api.on('GET /licenses', () => ({ json: [makeLicense('L1')] }));
    await store.dispatch(license.listMyLicenses.initiate());
    await store.dispatch(license.listMyLicenses.initiate());
    expect(api.calls('GET /licenses')).toHaveLength(1);
    api.on('POST /licenses/activate-base', () => ({ json: activationResult('L2') }));
    await store.dispatch(license.activateBaseLicense.initiate());
    await store.dispatch(license.listMyLicenses.initiate());
    expect(api.calls('GET /licenses')).toHaveLength(2);
  });

  const fallbacks = [
    [
      'fetch licenses',
      () => license.listMyLicenses.initiate(),
      'GET /licenses',
      licenseMessages.fetchLicensesFailed,
    ],
    [
      'fetch license',
      () => license.getMyLicense.initiate('X'),
      'GET /licenses/X',
      licenseMessages.fetchLicenseFailed,
    ],
    [
      'activate',
      () => license.activateLicense.initiate({ license_key: 'K' }),
      'POST /licenses/activate',
      licenseMessages.activationFailed,
    ],
    [
      'validate',
      () => license.validateLicense.initiate({ license_key: 'K' }),
      'POST /licenses/validate',
      licenseMessages.validationFailed,
    ],
    [
      'deactivate',
      () => license.deactivateLicense.initiate({ licenseId: 'X' }),
      'POST /licenses/X/deactivate',
      licenseMessages.deactivationFailed,
    ],
    [
      'usage',
      () => license.getLicenseUsage.initiate({ licenseId: 'X' }),
      'GET /licenses/X/usage',
      licenseMessages.fetchUsageFailed,
    ],
    [
      'update usage',
      () => license.updateLicenseUsage.initiate({ licenseId: 'X', featureId: 'F' }),
      'POST /licenses/X/usage',
      licenseMessages.updateUsageFailed,
    ],
    [
      'track usage',
      () => license.trackFeatureUsage.initiate({ licenseId: 'X', featureId: 'F' }),
      'POST /licenses/X/usage',
      licenseMessages.trackUsageFailed,
    ],
    [
      'feature check',
      () => license.checkFeatureAvailability.initiate({ licenseId: 'X', featureId: 'F' }),
      'GET /licenses/X/features/F',
      licenseMessages.featureCheckFailed,
    ],
    [
      'features',
      () => license.getLicenseFeatures.initiate('X'),
      'GET /licenses/X/features',
      licenseMessages.fetchFeaturesFailed,
    ],
    [
      'plan activation',
      () => license.activatePlan.initiate({ planId: 'P' }),
      'POST /licenses/activate-plan',
      licenseMessages.activatePlanFailed,
    ],
    [
      'current plan',
      () => license.getCurrentPlan.initiate(),
      'GET /licenses/current-plan',
      licenseMessages.fetchCurrentPlanFailed,
    ],
  ] as const;
  for (const [name, thunk, route, fallback] of fallbacks) {
    it(`license: ${name} failure stores the server message, else '${fallback}'`, async () => {
      const { store } = await signedIn();
      api.on(route, () => ({ status: 500, json: {}, offContract: WITHOUT_MESSAGE }));
      await store.dispatch(thunk() as never);
      expect(store.getState().license).toMatchObject({ status: 'failed', error: fallback });
      api.on(route, () => problem(422, 'Specific reason'));
      await store.dispatch(thunk() as never);
      expect(store.getState().license.error).toBe('Specific reason');
    });
  }
});

describe('License refusals', () => {
  it('a 4xx refusal with valid false is an answer: the status check reports it instead of failing', async () => {
    const made = tabServices(api.baseURL);
    made.tab.local.setItem(localStorageKeys.licenseKey, 'KEY-L1');
    const store = makeFullStore({ services: made.services });
    api.on('GET /licensing/status', () => ({
      status: 403,
      json: {
        detail: 'Not activated here',
        message: 'Not activated here',
        code: 'not_activated',
        valid: false,
        status: 'not_activated',
        requires_activation: true,
      },
    }));
    await store.dispatch(license.checkLicenseStatus.initiate());
    expect(store.getState().license.licenseStatus).toEqual({
      valid: false,
      status: 'not_activated',
      message: 'Not activated here',
      requires_activation: true,
    });
  });
});
