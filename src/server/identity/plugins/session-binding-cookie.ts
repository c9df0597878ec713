import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE_PATH } from '../../../shared/routes.js';
import { bindingSecretOf } from '../auth/session-binding.js';

export interface SessionBindingCookie {
  /** The binding secret the browser sent, if any. */
  read(request: FastifyRequest): string | undefined;
  /** Tells the browser to forget the binding (sign-out). */
  clear(reply: FastifyReply): void;
}

const BASE_NAME = 'dap_session_binding';

/**
 * The cookie that binds a web session to its browser (see session-binding.ts): HttpOnly, so page
 * scripts never see it, and SameSite=Strict, so no other site's page sends it. Over https it is
 * `__Host-` and Secure (which needs Path=/: no subdomain or plain-http page can plant or read it);
 * over http it goes to the auth routes only, the only ones that read it.
 */
export function registerSessionBindingCookie(
  app: FastifyInstance,
  { publicUrl }: { publicUrl: string },
): SessionBindingCookie {
  const secure = publicUrl.startsWith('https:');
  const name = secure ? `__Host-${BASE_NAME}` : BASE_NAME;
  const attributes = [
    `Path=${secure ? '/' : `${API_BASE_PATH}/auth`}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
  const cookie = (value: string, maxAgeSeconds: number) =>
    `${name}=${value}; Max-Age=${maxAgeSeconds}; ${attributes}`;

  // A token answer that started a bound session carries its secret beside it: set as the cookie,
  // living as long as the session may.
  app.addHook('preSerialization', (_request, reply, payload, done) => {
    const secret = bindingSecretOf(payload);
    if (secret !== undefined) {
      const life = (payload as { refresh_expires_in?: number }).refresh_expires_in ?? 0;
      reply.header('set-cookie', cookie(secret, life));
    }
    done(null, payload);
  });

  return {
    read(request) {
      // The value is base64url, so no quoting or decoding: the first cookie of that name is it.
      for (const part of (request.headers.cookie ?? '').split(';')) {
        const separator = part.indexOf('=');
        if (separator > 0 && part.slice(0, separator).trim() === name) {
          const value = part.slice(separator + 1).trim();
          return value === '' ? undefined : value;
        }
      }
      return undefined;
    },
    clear(reply) {
      reply.header('set-cookie', cookie('', 0));
    },
  };
}
