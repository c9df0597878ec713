import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type UnsubscribeAnswer,
  unsubscribeAnswerSchema,
  unsubscribeBodySchema,
  unsubscribeQuerySchema,
} from '../../../shared/api/notifications.js';
import { portalPaths } from '../../../shared/routes.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { errorResponses } from '../../platform/http/openapi-helpers.js';
import { unsubscribePage } from './unsubscribe-page.js';
import type { UnsubscribeService } from './unsubscribe.js';

export interface UnsubscribeRoutesOptions {
  unsubscribe: UnsubscribeService;
  publicUrl: string;
}

const tags = ['notifications'];

/** A browser that navigated here (the link in the mail, the confirmation form) wants a page; the rest JSON. */
const wantsPage = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

/**
 * The unsubscribe link of optional mail (RFC 8058): `GET` shows what it would do, `POST` does it,
 * whether from the page's button or from a mail provider's one-click unsubscribe. No client key
 * and no session: the signed token is the credential. Errors are JSON, as everywhere.
 */
export const unsubscribeRoutes: FastifyPluginAsyncZod<UnsubscribeRoutesOptions> = async (
  app,
  { unsubscribe, publicUrl },
) => {
  // Mail providers post `List-Unsubscribe=One-Click` as a form, some as multipart: only the
  // token in the address matters, so any small body is read and set aside.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) =>
    done(null, {}),
  );

  const profileUrl = `${publicUrl}${portalPaths.profile}`;
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    result: UnsubscribeAnswer,
    confirm: boolean,
  ) =>
    wantsPage(request)
      ? reply.type('text/html; charset=utf-8').send(unsubscribePage(result, { confirm, profileUrl }))
      : result;

  app.get(
    apiPaths.notifications.unsubscribe,
    {
      schema: {
        operationId: 'previewUnsubscribe',
        tags,
        summary:
          'What an unsubscribe link would turn off (changes nothing; a browser gets a page with a button)',
        security: [],
        querystring: unsubscribeQuerySchema,
        response: { 200: unsubscribeAnswerSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => answer(request, reply, await unsubscribe.preview(request.query.token), true),
  );

  app.post(
    apiPaths.notifications.unsubscribe,
    {
      schema: {
        operationId: 'unsubscribe',
        tags,
        summary: 'Turn off the notification preference an unsubscribe link names (RFC 8058 one-click)',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
        querystring: unsubscribeQuerySchema,
        body: unsubscribeBodySchema,
        response: { 200: unsubscribeAnswerSchema, ...errorResponses(400, 404) },
      },
      // A POST with no body at all asks the same as one-click's form.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request, reply) =>
      answer(request, reply, await unsubscribe.unsubscribe(request.query.token), false),
  );
};
