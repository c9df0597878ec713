import type { FastifyReply, FastifyRequest } from 'fastify';
import { SSO_SIGN_IN_TTL_SECONDS } from '../../../shared/api/organisation-sso.js';
import { API_BASE_PATH } from '../../../shared/routes.js';
import { randomToken } from '../../platform/crypto.js';

const BASE_NAME = 'dap_sso_browser';

/**
 * The cookie that ties a single sign-on to the browser that started it: the callback of a sign-in
 * started elsewhere (a link planted on someone, to sign them in as another) is refused. HttpOnly;
 * SameSite=Lax, since the provider's redirect back is a top-level navigation from its site.
 */
export function ssoBrowserCookie(publicUrl: string) {
  const secure = publicUrl.startsWith('https:');
  const name = secure ? `__Secure-${BASE_NAME}` : BASE_NAME;
  const attributes = [
    `Path=${API_BASE_PATH}/auth/sso`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ];
  const read = (request: FastifyRequest): string | undefined => {
    for (const part of (request.headers.cookie ?? '').split(';')) {
      const separator = part.indexOf('=');
      if (separator > 0 && part.slice(0, separator).trim() === name) {
        const value = part.slice(separator + 1).trim();
        return /^[\w-]{32,100}$/.test(value) ? value : undefined;
      }
    }
    return undefined;
  };
  return {
    read,
    /** The browser's secret, a new one set when it has none (several sign-ins in a browser share it). */
    ensure(request: FastifyRequest, reply: FastifyReply): string {
      const secret = read(request) ?? randomToken();
      reply.header(
        'set-cookie',
        [`${name}=${secret}`, `Max-Age=${SSO_SIGN_IN_TTL_SECONDS}`, ...attributes].join('; '),
      );
      return secret;
    },
  };
}
