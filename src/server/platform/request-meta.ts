import type { FastifyRequest } from 'fastify';

/** Who made a request, as recorded with sessions and security events. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  /** The API token the request was made with, if any: its events are attributed to it. */
  apiTokenId?: string;
  /** The client key's name (`web`, `desktop`, …): web sessions are bound to a cookie. */
  client?: string | null;
}

export const requestMeta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
  client: request.apiClient,
  ...(request.auth?.apiToken ? { apiTokenId: request.auth.apiToken.id } : {}),
});
