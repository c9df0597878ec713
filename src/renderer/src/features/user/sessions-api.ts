import { apiPaths } from '../../../../shared/routes';
import { toApiRequestError } from '../../lib/api-errors';
import { getServices, type Services } from '../../lib/services';

// The fallback when the server gives no message.
export const signOutEverywhereFailed = 'Could not sign out of every device';

/** POST /auth/logout-all: the server ends every session of the account, this one included. */
export async function signOutEverywhere(services: Services = getServices()): Promise<string> {
  try {
    const { data } = await services.client.http.post<{ message?: string }>(apiPaths.auth.logoutAll, {});
    return data.message || 'Signed out on every device';
  } catch (error) {
    throw toApiRequestError(error, signOutEverywhereFailed);
  }
}
