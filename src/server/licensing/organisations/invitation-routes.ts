import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenResponseSchema } from '../../../shared/api/auth.js';
import {
  acceptedInvitationSchema,
  invitationPreviewSchema,
  invitationSignUpBodySchema,
  invitationTokenBodySchema,
} from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { InvitationsService } from './invitations.js';

const paths = apiPaths.invitations;
const deadLinks =
  'A link replaced by a newer one is 404 `invitation_not_found`; one already used, withdrawn or expired is 410 ' +
  '(`invitation_used`, `invitation_revoked`, `invitation_expired`).';

/** The invitation link's calls: the token in the body is the credential. */
export const invitationRoutes: FastifyPluginAsyncZod<{
  invitations: InvitationsService;
  /** Requests per minute and client address on the open calls, which guess tokens or create accounts. */
  rateLimitPerMinute: number;
}> = async (app, { invitations, rateLimitPerMinute }) => {
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };

  app.post(
    paths.preview,
    {
      config: limited,
      schema: {
        operationId: 'previewInvitation',
        tags: ['invitations'],
        summary: 'What an invitation link offers, before anyone accepts it',
        description: `Open to anyone holding the link; it stays usable. ${deadLinks}`,
        security: apiKeySecurity,
        body: invitationTokenBodySchema,
        response: { 200: invitationPreviewSchema, ...errorResponses(400, 404, 410, 415, 429) },
      },
    },
    async (request) => invitations.preview(request.body.token),
  );

  app.post(
    paths.accept,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'acceptInvitation',
        tags: ['organisations'],
        summary: 'Accept an invitation as the signed-in account: you join with its role and a seat',
        description:
          'The account’s address must be the invited one (403 `invitation_for_another_account`); 409 `seats_full` ' +
          `when every seat is held, \`already_member\` for a member. ${deadLinks}`,
        security: bearerSecurity,
        body: invitationTokenBodySchema,
        response: { 200: acceptedInvitationSchema, ...errorResponses(400, 401, 403, 404, 409, 410, 415) },
      },
    },
    async (request) =>
      invitations.accept(request.body.token, currentUser(request).user, requestMeta(request)),
  );

  app.post(
    paths.signUp,
    {
      config: limited,
      schema: {
        operationId: 'signUpFromInvitation',
        tags: ['invitations'],
        summary: 'Create an account from an invitation link, join, and sign in',
        description:
          'The link proves the address, so the account is confirmed at once; the answer is a sign-in’s. ' +
          `An address that already has an account is told to sign in and accept instead (409 \`account_exists\`). ${deadLinks}`,
        security: apiKeySecurity,
        body: invitationSignUpBodySchema,
        response: { 200: tokenResponseSchema, ...errorResponses(400, 404, 409, 410, 415, 429) },
      },
    },
    async (request) => invitations.signUp(request.body, requestMeta(request)),
  );
};
