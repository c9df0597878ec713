import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiError } from '../../../shared/api/errors.js';
import { authMessages } from '../../../shared/messages.js';
import { HttpError } from '../http-error.js';
import { uriTooLong } from './path-rules.js';

const problem = (
  code: string,
  message: string,
  extra: Partial<ApiError> & Record<string, unknown> = {},
): ApiError => ({
  detail: message,
  message,
  code,
  ...extra,
});

// Fastify's own client errors, with the words a person can act on.
const fastifyErrors: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Unsupported content type',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'Request body is too large',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'Request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'invalid_json',
    message: 'Request body is not valid JSON',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request', message: 'Invalid Content-Length' },
};

// SQLSTATEs of text PostgreSQL cannot hold (a NUL character, an unconvertible one). Only request
// input carries such text, so it is the client's mistake, not a server fault; SQLite stores it.
const UNSTORABLE_TEXT_SQLSTATES = new Set(['22021', '22P05']);

/** Requests Fastify refuses before routing (e.g. a malformed percent-encoded URL). */
export function sendFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const tooLong = uriTooLong();
    return reply.code(tooLong.statusCode).send(problem(tooLong.code, tooLong.message));
  }
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  return reply
    .code(status)
    .send(problem('bad_request', 'The request URL or headers could not be understood'));
}

/** Requests Node's HTTP parser refuses (garbage request line, oversized or malformed headers). */
export function writeClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(
    problem(status === 431 ? 'headers_too_large' : 'bad_request', STATUS_CODES[status] ?? 'Bad Request'),
  );
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(404)
    .send(problem('not_found', `Nothing found at ${request.method} ${request.url.split('?')[0] ?? ''}`));
}

/**
 * Every error leaves as `{ detail, message, code }` JSON: client mistakes with their own status
 * and words, anything unexpected as a 500 that says nothing of stacks, SQL or internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send(problem(error.code, error.message, error.extra));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const context = (error as { validationContext?: string }).validationContext ?? 'body';
      const errors = error.validation.map((issue) => ({
        field: issue.instancePath.slice(1).replaceAll('/', '.') || context,
        message: issue.message ?? 'Invalid value',
      }));
      const first = errors[0];
      const message = first
        ? `${first.field === context ? '' : `${first.field}: `}${first.message}`
        : 'Invalid request';
      return reply.code(400).send(problem('validation_error', message, { errors }));
    }
    const known = error.code ? fastifyErrors[error.code] : undefined;
    if (known) return reply.code(known.status).send(problem(known.code, known.message));
    if (typeof error.code === 'string' && UNSTORABLE_TEXT_SQLSTATES.has(error.code)) {
      request.log.warn({ code: error.code }, 'request text refused by the database');
      return reply
        .code(400)
        .send(problem('invalid_characters', 'The request contains characters that are not allowed'));
    }
    if (error.statusCode === 429) {
      return reply.code(429).send(problem('rate_limited', 'Too many requests. Wait a minute and try again.'));
    }
    if (
      error instanceof SyntaxError ||
      (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    ) {
      return reply
        .code(error.statusCode && error.statusCode < 500 ? error.statusCode : 400)
        .send(problem('bad_request', 'The request could not be understood'));
    }
    if (isResponseSerializationError(error))
      request.log.error({ issues: error.cause.issues }, 'response failed its schema');
    else request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(problem('internal_error', authMessages.unexpectedServerError));
  });
}
