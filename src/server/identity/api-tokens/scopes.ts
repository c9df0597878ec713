import { type ApiTokenKind, grantableScopes, NEVER_TOKEN_TAGS } from '../../../shared/api/api-tokens.js';
import { badRequest, HttpError } from '../../platform/http-error.js';

/** Reading needs `<tag>:read`; anything else needs `<tag>:write`, which also grants reading. */
export const scopesNeeded = (tags: readonly string[], method: string): string[] => {
  const access = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  return tags.map((tag) => `${tag}:${access}`);
};

const grants = (granted: readonly string[], needed: string) =>
  granted.includes(needed) ||
  (needed.endsWith(':read') && granted.includes(needed.replace(/:read$/, ':write')));

const insufficientScope = (scope: string, message: string) =>
  new HttpError(
    403,
    'insufficient_scope',
    message,
    { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    { required_scope: scope },
  );

/**
 * Refuses a token's call to an operation (tagged `tags`) unless the token holds the scope of
 * every tag: 403 `insufficient_scope` naming the first scope it lacks. Operations without tags,
 * or tagged with an area tokens never reach (sign-in, factors, tokens), are refused outright.
 */
export function assertTokenMayCall(
  granted: readonly string[],
  tags: readonly string[],
  method: string,
): void {
  const barred = tags.find((tag) => (NEVER_TOKEN_TAGS as readonly string[]).includes(tag));
  if (tags.length === 0 || barred !== undefined) {
    throw insufficientScope(
      barred ?? 'none',
      'API tokens cannot be used for this operation; sign in to the portal instead',
    );
  }
  for (const scope of scopesNeeded(tags, method)) {
    if (!grants(granted, scope)) {
      throw insufficientScope(scope, `This API token lacks the ${scope} scope`);
    }
  }
}

/** Refuses scopes a token of this kind may not carry (a customer's token asking for `admin:read`). */
export function assertGrantable(kind: ApiTokenKind, scopes: readonly string[]): void {
  const allowed: readonly string[] = grantableScopes(kind);
  const refused = scopes.filter((scope) => !allowed.includes(scope));
  if (refused.length > 0) {
    throw badRequest(
      'invalid_scope',
      `A ${kind} token cannot carry ${refused.join(', ')}; choose among ${allowed.join(', ')}`,
    );
  }
}
