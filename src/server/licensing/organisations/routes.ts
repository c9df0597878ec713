import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noBodySchema } from '../../../shared/api/common.js';
import {
  changeMemberRoleBodySchema,
  createOrganisationBodySchema,
  invitationListSchema,
  invitationParamsSchema,
  invitationSchema,
  inviteMemberBodySchema,
  memberParamsSchema,
  organisationListSchema,
  organisationMemberListSchema,
  organisationMemberSchema,
  organisationParamsSchema,
  organisationSchema,
  transferOwnershipBodySchema,
  updateOrganisationBodySchema,
} from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { InvitationsService } from './invitations.js';
import { managers, organisationActorOf, outsiders } from './route-parts.js';
import type { OrganisationsService } from './service.js';

const tags = ['organisations'];
const paths = apiPaths.organisations;

/** An account's organisations: members and roles, seats assigned by hand, ownership, leaving, invitations. */
export const organisationsRoutes: FastifyPluginAsyncZod<{
  organisations: OrganisationsService;
  invitations: InvitationsService;
}> = async (app, { organisations, invitations }) => {
  app.post(
    paths.list,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'createOrganisation',
        tags,
        summary: 'Create an organization; you become its owner',
        security: bearerSecurity,
        body: createOrganisationBodySchema,
        response: { 201: organisationSchema, ...errorResponses(400, 401, 403, 415) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await organisations.create(organisationActorOf(request), request.body)),
  );

  app.get(
    paths.list,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'listOrganisations',
        tags,
        summary: 'The organizations you belong to, with your role in each',
        security: bearerSecurity,
        response: { 200: organisationListSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => organisations.listMine(currentUser(request).user),
  );

  app.get(
    paths.detail,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'getOrganisation',
        tags,
        summary: 'An organization you belong to: its seats, license and billing details',
        description: outsiders,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 200: organisationSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => organisations.get(request.params.organisationId, currentUser(request).user),
  );

  app.patch(
    paths.detail,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'updateOrganisation',
        tags,
        summary: 'Rename an organization or change the billing details its invoices carry',
        description: managers,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: updateOrganisationBodySchema,
        response: { 200: organisationSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) =>
      organisations.update(request.params.organisationId, organisationActorOf(request), request.body),
  );

  app.get(
    paths.members,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'listOrganisationMembers',
        tags,
        summary: 'The members, their roles, seats and active machines on the organization’s license',
        description: outsiders,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 200: organisationMemberListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => organisations.listMembers(request.params.organisationId, currentUser(request).user),
  );

  app.patch(
    paths.member,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'changeOrganisationMemberRole',
        tags,
        summary: 'Make a member an admin, or an admin a member',
        description: `The owner’s role changes only by a transfer of ownership (409 \`owner_role_fixed\`). ${managers}`,
        security: bearerSecurity,
        params: memberParamsSchema,
        body: changeMemberRoleBodySchema,
        response: { 200: organisationMemberSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) =>
      organisations.changeRole(
        request.params.organisationId,
        request.params.userId,
        request.body.role,
        organisationActorOf(request),
      ),
  );

  app.delete(
    paths.member,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'removeOrganisationMember',
        tags,
        summary: 'Remove a member: their seat is freed and their machines on it stop at their next check',
        description: `The owner cannot be removed (409 \`owner_cannot_be_removed\`). ${managers}`,
        security: bearerSecurity,
        params: memberParamsSchema,
        response: { 204: z.null().describe('Removed'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await organisations.removeMember(
        request.params.organisationId,
        request.params.userId,
        organisationActorOf(request),
      );
      return reply.code(204).send(null);
    },
  );

  app.put(
    paths.memberSeat,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'assignOrganisationSeat',
        tags,
        summary: 'Give a member one of the seats bought',
        description: `409 \`seats_full\` when every seat is held or promised to a pending invitation, \`no_seats\` before the organization buys any. ${managers}`,
        security: bearerSecurity,
        params: memberParamsSchema,
        body: noBodySchema,
        response: { 200: organisationMemberSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) =>
      organisations.assignSeat(
        request.params.organisationId,
        request.params.userId,
        organisationActorOf(request),
      ),
  );

  app.delete(
    paths.memberSeat,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'unassignOrganisationSeat',
        tags,
        summary: 'Take a member’s seat back: their machines on it stop at their next check',
        description: `The owner’s seat is given up only by the owner (409 \`owner_seat_fixed\` for admins). ${managers}`,
        security: bearerSecurity,
        params: memberParamsSchema,
        response: { 200: organisationMemberSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      organisations.unassignSeat(
        request.params.organisationId,
        request.params.userId,
        organisationActorOf(request),
      ),
  );

  app.post(
    paths.transferOwnership,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'transferOrganisationOwnership',
        tags,
        summary: 'Make another member the owner; you stay on as an admin',
        description: `The owner only (403 \`owner_only\`); the organization’s license passes to the new owner. ${outsiders}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: transferOwnershipBodySchema,
        response: { 200: organisationSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) =>
      organisations.transferOwnership(
        request.params.organisationId,
        request.body.user_id,
        organisationActorOf(request),
      ),
  );

  app.post(
    paths.leave,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'leaveOrganisation',
        tags,
        summary: 'Leave an organization: your seat is freed and your machines on it stop',
        description: `The owner transfers ownership first (409 \`owner_cannot_leave\`). ${outsiders}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: noBodySchema,
        response: { 204: z.null().describe('Left'), ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request, reply) => {
      await organisations.leave(request.params.organisationId, organisationActorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    paths.invitations,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'listOrganisationInvitations',
        tags,
        summary: 'The organization’s invitations, newest first, with their status',
        description: managers,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 200: invitationListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => invitations.list(request.params.organisationId, currentUser(request).user),
  );

  app.post(
    paths.invitations,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'inviteOrganisationMember',
        tags,
        summary: 'Invite someone by e-mail: the mail’s link lets them join with a seat',
        description:
          'Refused while every seat is held or promised to a pending invitation (409 `seats_full`), ' +
          `before the organization has seats (409 \`no_seats\`), and for a member or an address already invited (409). ${managers}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: inviteMemberBodySchema,
        response: { 201: invitationSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await invitations.invite(request.params.organisationId, request.body, organisationActorOf(request)),
        ),
  );

  app.delete(
    paths.invitation,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'revokeOrganisationInvitation',
        tags,
        summary: 'Withdraw an invitation: its link stops working',
        description: managers,
        security: bearerSecurity,
        params: invitationParamsSchema,
        response: { 200: invitationSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      invitations.revoke(
        request.params.organisationId,
        request.params.invitationId,
        organisationActorOf(request),
      ),
  );

  app.post(
    paths.resendInvitation,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'resendOrganisationInvitation',
        tags,
        summary: 'Send an invitation again with a fresh link and expiry; the old link stops working',
        description: managers,
        security: bearerSecurity,
        params: invitationParamsSchema,
        body: noBodySchema,
        response: { 200: invitationSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) =>
      invitations.resend(
        request.params.organisationId,
        request.params.invitationId,
        organisationActorOf(request),
      ),
  );
};
