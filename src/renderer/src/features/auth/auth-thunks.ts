import type { RegisterRequest } from '../../../../shared/api/auth';
import type { UserProfile } from '../../../../shared/api/users';
import { authMessages } from '../../../../shared/messages';
import { apiPaths } from '../../../../shared/routes';
import { localStorageKeys } from '../../../../shared/storage-keys';
import { serverMessage } from '../../lib/api-errors';
import { createAppThunk } from '../../lib/create-app-thunk';
import type { Services } from '../../lib/services';
import { runStorageMigrations } from '../../lib/storage-migrations';
import { isTokenValid, roleFromToken } from '../../lib/token';

// The calls behind sign-in, registration and sign-out load when one is made, not with every page.
const loadAuthApi = () => import('./auth-api');

/** Who is signed in: the user and the role read from the access token. */
export interface SessionIdentity {
  user: UserProfile;
  role: string;
}

async function identityFrom(
  services: Services,
  accessToken: string,
  user: unknown,
): Promise<SessionIdentity> {
  // The profile is fetched after login or refresh when the answer does not carry it.
  const profile =
    (user as UserProfile | null) ?? (await services.client.http.get<UserProfile>(apiPaths.users.me)).data;
  await services.tokens.setUser(profile);
  return { user: profile, role: roleFromToken(accessToken) };
}

export const loginUser = createAppThunk(
  'auth/login',
  async (credentials: { email: string; password: string }, { extra, rejectWithValue }) => {
    try {
      const { login } = await loadAuthApi();
      const tokens = await login(credentials, extra.client.http);
      await extra.tokens.save(tokens);
      extra.cache.invalidate();
      return await identityFrom(extra, tokens.accessToken, tokens.user);
    } catch (error) {
      return rejectWithValue(serverMessage(error, authMessages.loginFailed));
    }
  },
);

export const registerUser = createAppThunk(
  'auth/register',
  async (body: RegisterRequest, { extra, rejectWithValue }) => {
    try {
      const { register } = await loadAuthApi();
      return await register(body, extra.client.http);
    } catch (error) {
      return rejectWithValue(serverMessage(error, authMessages.registrationFailed));
    }
  },
);

export const logoutUser = createAppThunk('auth/logout', async (_: void, { extra, rejectWithValue }) => {
  try {
    // The refresh token may also sit in local storage under the product's name.
    const refreshToken =
      (await extra.tokens.getRefreshToken()) ?? extra.local.getItem(localStorageKeys.refreshToken);
    if (refreshToken) await (await loadAuthApi()).logout(refreshToken, extra.client.http);
    return undefined;
  } catch (error) {
    return rejectWithValue(serverMessage(error, authMessages.logoutFailed));
  } finally {
    await extra.tokens.clear();
    extra.cache.invalidate();
  }
});

/** Refreshes the tokens (shared with the client's own refreshes) and re-reads who is signed in. */
export const refreshSession = createAppThunk('auth/refresh', async (_: void, { extra, rejectWithValue }) => {
  try {
    const tokens = await extra.client.refreshTokens();
    return await identityFrom(extra, tokens.accessToken, tokens.user);
  } catch (error) {
    await extra.tokens.clear();
    return rejectWithValue(serverMessage(error, authMessages.sessionExpired));
  }
});

export type SessionOutcome =
  | { outcome: 'restored'; identity: SessionIdentity }
  | { outcome: 'anonymous' }
  | { outcome: 'invalid'; message: string };

/**
 * Start-up: runs the one-time migrations, restores the session from secure storage,
 * refreshes it when the access token is no longer valid, or signs out.
 */
export const initializeSession = createAppThunk(
  'auth/initialize',
  async (_: void, { extra }): Promise<SessionOutcome> => {
    const { requiresLogin } = await runStorageMigrations(extra);
    if (requiresLogin) return { outcome: 'invalid', message: authMessages.sessionExpired };
    try {
      const accessToken = await extra.tokens.getAccessToken();
      if (accessToken && isTokenValid(accessToken, extra.now()))
        return {
          outcome: 'restored',
          identity: await identityFrom(extra, accessToken, await extra.tokens.getUser()),
        };
      if (!(await extra.tokens.getRefreshToken())) {
        await extra.tokens.clear();
        return accessToken
          ? { outcome: 'invalid', message: authMessages.sessionExpired }
          : { outcome: 'anonymous' };
      }
      const tokens = await extra.client.refreshTokens();
      return { outcome: 'restored', identity: await identityFrom(extra, tokens.accessToken, tokens.user) };
    } catch (error) {
      await extra.tokens.clear();
      return { outcome: 'invalid', message: serverMessage(error, authMessages.sessionExpired) };
    }
  },
);
