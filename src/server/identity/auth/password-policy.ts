import { judgeNewPassword } from '../../../shared/password-rule.js';
import { badRequest } from '../../platform/http-error.js';

/**
 * The server's rule for new passwords beyond their length (checked by the schema): the portal's
 * shared rule, so its strength meter shows the verdict the server gives. Returns what is wrong and
 * what to do, or `undefined` for an acceptable password.
 */
export function newPasswordProblem(password: string, email: string): string | undefined {
  return judgeNewPassword(password, email).problem;
}

/** {@link newPasswordProblem} as a 400 answer, for the API. */
export function assertAcceptableNewPassword(password: string, email: string): void {
  const problem = newPasswordProblem(password, email);
  if (problem) throw badRequest('password_too_common', problem);
}
