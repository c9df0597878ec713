import type { SessionEndReason } from '../../../../shared/api/auth';
import { authMessages } from '../../../../shared/messages';
import { sessionEndReason } from '../../lib/api-client';
import { serverMessage } from '../../lib/api-errors';
import { createAppThunk } from '../../lib/create-app-thunk';
import { runStorageMigrations } from '../../lib/storage-migrations';
import { isTokenValid } from '../../lib/token';
import { identityFrom, type SessionIdentity } from './identity';

export type { SessionIdentity } from './identity';

/*
 * Restoring and refreshing the session are the API client's own session rules (its one shared
 * refresh), not reads of server data: they run at start-up on every page, /landing and /login
 * included, which load neither RTK Query nor axios until a call is needed.
 */

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
  /** The stored session could not be kept; `reason` is why the server ended it, when it said. */
  | { outcome: 'invalid'; message: string; reason?: SessionEndReason };

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
      const reason = sessionEndReason(error);
      return {
        outcome: 'invalid',
        message: serverMessage(error, authMessages.sessionExpired),
        ...(reason ? { reason } : {}),
      };
    }
  },
);
