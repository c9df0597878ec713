import type { FastifyRequest } from 'fastify';

/** Who made a request, as recorded with sessions and security events. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
}

export const requestMeta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
});
