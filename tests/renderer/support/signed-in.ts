import { authApi } from '../../../src/renderer/src/features/auth/auth-endpoints';
import { type FakeApi, testUser } from './fake-api';
import { tabServices } from './services';
import { makeFullStore } from './store';

/** A tab already holding tokens the fake API issued, with a store that has every slice. */
export async function signedInTab(api: FakeApi, options: Parameters<typeof tabServices>[1] = {}) {
  const made = tabServices(api.baseURL, options);
  const issued = api.issue();
  await made.services.tokens.save({
    accessToken: issued.access_token,
    refreshToken: issued.refresh_token,
    user: null,
  });
  return { ...made, issued, store: makeFullStore({ services: made.services }) };
}

/** A tab signed in through POST /auth/login, with a store that has every slice. */
export async function loggedInTab(api: FakeApi) {
  const made = tabServices(api.baseURL);
  const store = makeFullStore({ services: made.services });
  api.on('POST /auth/login', () => ({ json: api.signInAnswer() }));
  await store.dispatch(authApi.endpoints.login.initiate({ email: testUser.email, password: 'pw' })).unwrap();
  return { ...made, store };
}

/** A license as `GET /licenses` answers it, with `extra` fields overriding the defaults. */
export const makeLicense = (id: string, extra: object = {}) => ({
  license_id: id,
  license_key: `KEY-${id}`,
  user_id: 'user-1',
  plan_id: 'plan-base',
  plan: { id: 'plan-base', code: 'base', name: 'Base', billing_interval: 'free' },
  subscription_id: null,
  status: 'active',
  expires_at: null,
  renews: false,
  paused_until: null,
  updates_until: null,
  update_window_ended: false,
  max_activations: 1,
  activations_used: 0,
  revoked_reason: null,
  revoked_at: null,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  floating: false,
  organisation: null,
  trial: null,
  usage_info: { features: [] },
  ...extra,
});
