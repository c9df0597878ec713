import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFullStore } from './support/store';
import { FakeApi } from './support/fake-api';
import { tabServices } from './support/services';

/* The fields each slice of the store starts with. */

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

const sorted = (record: object) => Object.keys(record).sort();

describe('state fields', () => {
  it('auth state is isAuthenticated, user, status, error, lastActivity (a timestamp) and userRole', () => {
    const { services } = tabServices(api.baseURL);
    const auth = makeFullStore({ services }).getState().auth;
    expect(sorted(auth)).toEqual(
      ['error', 'isAuthenticated', 'lastActivity', 'status', 'user', 'userRole'].sort(),
    );
    expect(auth).toMatchObject({ isAuthenticated: false, user: null, status: 'idle', error: null });
    expect(typeof auth.lastActivity).toBe('number');
  });

  it('user state is profile, preferences (an object), status and error', () => {
    const { services } = tabServices(api.baseURL);
    const user = makeFullStore({ services }).getState().user;
    expect(sorted(user)).toEqual(['error', 'preferences', 'profile', 'status']);
    expect(user.preferences).toEqual({});
  });

  it('license state has every documented field', () => {
    const { services } = tabServices(api.baseURL);
    const state = makeFullStore({ services }).getState().license;
    expect(sorted(state)).toEqual(
      [
        'licenses',
        'currentLicense',
        'activationStatus',
        'usageMetrics',
        'featureStatus',
        'allFeatures',
        'availablePlans',
        'featureDefinitions',
        'licenseActivations',
        'licenseStatus',
        'status',
        'error',
      ].sort(),
    );
    expect(state.featureStatus).toEqual({});
    expect(state.licenses).toEqual([]);
  });

  it('admin state has the five paged collections and the selections, stats, status and error', () => {
    const { services } = tabServices(api.baseURL);
    const state = makeFullStore({ services }).getState().admin;
    expect(sorted(state)).toEqual(
      [
        'users',
        'licenses',
        'payments',
        'securityEvents',
        'features',
        'systemStats',
        'selectedUser',
        'selectedLicense',
        'selectedPayment',
        'selectedFeature',
        'status',
        'error',
      ].sort(),
    );
    for (const key of ['users', 'licenses', 'payments', 'securityEvents', 'features'] as const)
      expect(sorted(state[key])).toEqual(['data', 'page', 'perPage', 'total']);
  });
});
