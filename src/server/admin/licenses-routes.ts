import { idParamsSchema as params, noBodySchema, recordIdSchema } from '../../shared/api/common.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminActivationListSchema,
  adminLicenseListQuerySchema,
  adminLicenseListSchema,
  adminLicenseSchema,
  changeTrialRequestSchema,
  createAdminLicenseRequestSchema,
  resetDeactivationsRequestSchema,
  revokeLicenseQuerySchema,
  updateAdminLicenseRequestSchema,
} from '../../shared/api/admin.js';
import { renameActivationRequestSchema } from '../../shared/api/licenses.js';
import { apiPaths } from '../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../platform/http/openapi-helpers.js';
import { actorOf } from '../platform/security-log/admin-actor.js';
import type { AdminLicensesService } from './licenses-service.js';

const tags = ['admin'];
const paths = apiPaths.admin;

/** `/admin/licenses`: every user's licenses and their machines, administrators only. */
export const adminLicensesRoutes: FastifyPluginAsyncZod<{ licenses: AdminLicensesService }> = async (
  app,
  { licenses },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    paths.licenses,
    {
      schema: {
        operationId: 'adminListLicenses',
        tags,
        summary: 'List licenses (paged; filter by status, plan, user and creation dates)',
        description:
          'search matches the owner’s e-mail or any part of the key, typed with or without dashes.',
        security: bearerSecurity,
        querystring: adminLicenseListQuerySchema,
        response: { 200: adminLicenseListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => licenses.list(request.query),
  );

  app.post(
    paths.licenses,
    {
      schema: {
        operationId: 'adminCreateLicense',
        tags,
        summary: 'Issue a license of a plan to a user',
        security: bearerSecurity,
        body: createAdminLicenseRequestSchema,
        response: { 201: adminLicenseSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request, reply) => reply.code(201).send(await licenses.create(actorOf(request), request.body)),
  );

  app.get(
    paths.license,
    {
      schema: {
        operationId: 'adminGetLicense',
        tags,
        summary: 'One license with its activations',
        security: bearerSecurity,
        params,
        response: { 200: adminLicenseSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => licenses.get(request.params.id),
  );

  app.put(
    paths.license,
    {
      schema: {
        operationId: 'adminUpdateLicense',
        tags,
        summary: 'Change a license’s status (active or suspended), expiry, seats or plan',
        description: 'A revoked license is final (409). Fewer seats than machines in use is refused (409).',
        security: bearerSecurity,
        params,
        body: updateAdminLicenseRequestSchema,
        response: { 200: adminLicenseSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => licenses.update(actorOf(request), request.params.id, request.body),
  );

  app.post(
    paths.revokeLicense,
    {
      // A revocation cannot be undone: a recent sign-in or step-up first.
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'adminRevokeLicense',
        tags,
        summary: 'Revoke a license for good; the reason (query) is shown to its owner',
        security: bearerSecurity,
        params,
        querystring: revokeLicenseQuerySchema,
        body: noBodySchema,
        response: { 200: adminLicenseSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => licenses.revoke(actorOf(request), request.params.id, request.query.reason),
  );

  app.post(
    paths.licenseTrial,
    {
      schema: {
        operationId: 'adminChangeLicenseTrial',
        tags,
        summary: 'Extend a free trial by some days, or end it now',
        description:
          'Extending adds the days to the trial’s end, or to now once it has ended. 409 `license_not_trial` when ' +
          'the license is not a trial (bought, or never one), `trial_already_ended` when ending an ended trial.',
        security: bearerSecurity,
        params,
        body: changeTrialRequestSchema,
        response: { 200: adminLicenseSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => licenses.changeTrial(actorOf(request), request.params.id, request.body),
  );

  app.get(
    paths.licenseActivations,
    {
      schema: {
        operationId: 'adminListLicenseMachines',
        tags,
        summary: 'The machines of a license, active ones first',
        security: bearerSecurity,
        params,
        response: { 200: adminActivationListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => licenses.activations(request.params.id),
  );

  app.post(
    paths.deactivateActivation,
    {
      schema: {
        operationId: 'adminDeactivateLicenseMachine',
        tags,
        summary: 'Deactivate one machine of a license, freeing its seat',
        security: bearerSecurity,
        params: params.extend({ activationId: recordIdSchema }),
        body: noBodySchema,
        response: { 200: adminLicenseSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => licenses.deactivate(actorOf(request), request.params.id, request.params.activationId),
  );

  app.post(
    paths.resetDeactivations,
    {
      schema: {
        operationId: 'adminResetLicenseDeactivations',
        tags,
        summary: 'Reset the count of machines a license deactivated, with a reason',
        description:
          'The deactivations counted against the plan’s cap in the last 30 days no longer count, so the ' +
          'customer may free machines again at once. The reason is required and kept in the security log ' +
          '(`deactivations_reset`) with the administrator and how many were forgiven.',
        security: bearerSecurity,
        params,
        body: resetDeactivationsRequestSchema,
        response: { 200: adminLicenseSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) => licenses.resetDeactivations(actorOf(request), request.params.id, request.body.reason),
  );

  app.patch(
    paths.activation,
    {
      schema: {
        operationId: 'adminRenameLicenseMachine',
        tags,
        summary: 'Name one machine of a license (null drops the name)',
        description: 'Activating the same machine again keeps the name.',
        security: bearerSecurity,
        params: params.extend({ activationId: recordIdSchema }),
        body: renameActivationRequestSchema,
        response: { 200: adminLicenseSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) =>
      licenses.renameActivation(
        actorOf(request),
        request.params.id,
        request.params.activationId,
        request.body.label,
      ),
  );
};
