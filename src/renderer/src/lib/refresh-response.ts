import { authMessages } from '../../../shared/messages';
import { ApiRequestError } from './api-errors';

export interface SessionTokens {
  accessToken: string;
  /** The rotated refresh token; null when the server kept the old one. */
  refreshToken: string | null;
  user: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null);

/**
 * A refresh (or login) answer may be an array (first item used) or wrap its fields in
 * `data`; it names the tokens token/accessToken/access_token and refreshToken/refresh_token, and
 * the user user/userData.
 */
export function readTokenResponse(body: unknown, missingTokenMessage: string): SessionTokens {
  let answer = Array.isArray(body) ? (body[0] as unknown) : body;
  if (
    answer &&
    typeof answer === 'object' &&
    'data' in answer &&
    answer.data &&
    typeof answer.data === 'object'
  )
    answer = Array.isArray(answer.data) ? (answer.data[0] as unknown) : answer.data;
  const fields = (answer && typeof answer === 'object' ? answer : {}) as Record<string, unknown>;
  const accessToken = text(fields.token) ?? text(fields.accessToken) ?? text(fields.access_token);
  if (!accessToken) throw new ApiRequestError(missingTokenMessage);
  return {
    accessToken,
    refreshToken: text(fields.refreshToken) ?? text(fields.refresh_token),
    user: fields.user ?? fields.userData ?? null,
  };
}

export const readRefreshResponse = (body: unknown) =>
  readTokenResponse(body, authMessages.noAccessTokenInRefresh);
