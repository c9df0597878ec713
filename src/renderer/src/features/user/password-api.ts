import type { ChangePasswordRequest } from '../../../../shared/api/users';
import { apiPaths } from '../../../../shared/routes';
import { toApiRequestError } from '../../lib/api-errors';
import { getServices, type Services } from '../../lib/services';

// The fallback when the server gives no message.
export const changePasswordFailed = 'Could not change the password';

/**
 * PUT /users/me/password (the same operation as POST /auth/change-password). The server then ends
 * every session of the account, this one included: the caller signs out afterwards.
 */
export async function changeMyPassword(
  body: ChangePasswordRequest,
  services: Services = getServices(),
): Promise<string> {
  try {
    const { data } = await services.client.http.put<{ message?: string }>(apiPaths.users.password, body);
    return data.message || 'Your password was changed.';
  } catch (error) {
    throw toApiRequestError(error, changePasswordFailed);
  }
}
