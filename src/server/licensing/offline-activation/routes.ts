import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  offlineActivationResultSchema,
  offlineDeactivationResultSchema,
} from '../../../shared/api/offline-activation.js';
import {
  OFFLINE_FILE_MAX_BYTES,
  offlineActivationRequestSchema,
  offlineDeactivationProofSchema,
} from '../../../shared/offline-files.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { OfflineActivationService } from './service.js';

const paths = apiPaths.offlineActivation;
// Each body is one small file as the app wrote it: anything larger is not one.
const bodyLimit = OFFLINE_FILE_MAX_BYTES;

const requestDescription =
  'The body is the activation request file the desktop app wrote on a machine without network. ' +
  'The seat is taken as by an online activation (the same seat limit and refusals; an ' +
  "organization's license is activated by its members signing in, so its key is refused). The " +
  'answer is the license file to import in the app: a lease signed as the online ones, bound to the ' +
  "machine, for the plan's offline lifetime (never past the license's end). The same request uploaded " +
  'again answers the same file on the same seat (200 instead of 201).';
const proofDescription =
  'The body is the signed-out proof the desktop app wrote when it forgot its license file, signed ' +
  'with the key that traveled in its request. It frees the seat once; the same proof again is 409.';

/** Activation by file: customers for their own licenses, administrators for any. */
export const offlineActivationRoutes: FastifyPluginAsyncZod<{ offline: OfflineActivationService }> = async (
  app,
  { offline },
) => {
  app.post(
    paths.activate,
    {
      onRequest: app.requireUser,
      bodyLimit,
      schema: {
        operationId: 'uploadOfflineActivationRequest',
        tags: ['licenses'],
        summary: 'Upload an activation request file and get the license file for that machine',
        description: requestDescription,
        security: bearerSecurity,
        body: offlineActivationRequestSchema,
        response: {
          200: offlineActivationResultSchema,
          201: offlineActivationResultSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const result = await offline.activate(
        { kind: 'customer', user: currentUser(request).user },
        request.body,
        requestMeta(request),
      );
      return reply.code(result.created ? 201 : 200).send(result);
    },
  );

  app.post(
    paths.deactivate,
    {
      onRequest: app.requireUser,
      bodyLimit,
      schema: {
        operationId: 'uploadOfflineDeactivationProof',
        tags: ['licenses'],
        summary: "Upload a machine's signed-out proof to free its seat",
        description: proofDescription,
        security: bearerSecurity,
        body: offlineDeactivationProofSchema,
        response: { 200: offlineDeactivationResultSchema, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request) =>
      offline.deactivate({ kind: 'customer', user: currentUser(request).user }, request.body),
  );

  app.post(
    paths.adminActivate,
    {
      onRequest: app.requireAdmin,
      bodyLimit,
      schema: {
        operationId: 'adminUploadOfflineActivationRequest',
        tags: ['admin'],
        summary: "Upload an activation request file for any license; the seat is the license owner's",
        description: requestDescription,
        security: bearerSecurity,
        body: offlineActivationRequestSchema,
        response: {
          200: offlineActivationResultSchema,
          201: offlineActivationResultSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const result = await offline.activate(
        { kind: 'admin', user: currentUser(request).user },
        request.body,
        requestMeta(request),
      );
      return reply.code(result.created ? 201 : 200).send(result);
    },
  );

  app.post(
    paths.adminDeactivate,
    {
      onRequest: app.requireAdmin,
      bodyLimit,
      schema: {
        operationId: 'adminUploadOfflineDeactivationProof',
        tags: ['admin'],
        summary: "Upload any machine's signed-out proof to free its seat",
        description: proofDescription,
        security: bearerSecurity,
        body: offlineDeactivationProofSchema,
        response: {
          200: offlineDeactivationResultSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415),
        },
      },
    },
    async (request) => offline.deactivate({ kind: 'admin', user: currentUser(request).user }, request.body),
  );
};
