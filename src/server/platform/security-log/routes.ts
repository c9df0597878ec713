import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  securityEventListQuerySchema,
  securityEventListSchema,
  securityEventSchema,
} from '../../../shared/api/admin.js';
import { idParamsSchema } from '../../../shared/api/common.js';
import { securityEventExportQuerySchema } from '../../../shared/api/exports.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { sendExport } from '../exports/stream-export.js';
import { bearerSecurity, errorResponses } from '../http/openapi-helpers.js';
import { securityEventTypes } from './security-events.js';
import type { SecurityEventsService } from './service.js';

const tags = ['admin'];
const paths = apiPaths.admin;
const knownTypes: readonly string[] = Object.values(securityEventTypes).sort();

// The shared schema takes any comma list; only the server knows every type it records.
const knownTypesOnly = (query: { type?: unknown }, context: z.RefinementCtx) => {
  // Runs even when the field itself was refused (then it is still the raw string): skip it then.
  if (!Array.isArray(query.type)) return;
  const unknown = query.type.filter((type) => !knownTypes.includes(type));
  if (unknown.length > 0) {
    context.addIssue({
      code: 'custom',
      path: ['type'],
      message: `unknown event type ${unknown.map((type) => `"${type}"`).join(', ')}; use one of ${knownTypes.join(', ')}`,
    });
  }
};
const listQuery = securityEventListQuerySchema.superRefine(knownTypesOnly);
const exportQuery = securityEventExportQuerySchema.superRefine(knownTypesOnly);

/** `/admin/security-events`: the security log, filterable and paged, administrators only. */
export const adminSecurityEventsRoutes: FastifyPluginAsyncZod<{
  securityEvents: SecurityEventsService;
}> = async (app, { securityEvents }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    paths.securityEvents,
    {
      schema: {
        operationId: 'adminListSecurityEvents',
        tags,
        summary: 'Security events (paged; filter by type, severity, user and dates)',
        description: `Known types: ${knownTypes.join(', ')}.`,
        security: bearerSecurity,
        querystring: listQuery,
        response: { 200: securityEventListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => securityEvents.list(request.query),
  );

  app.get(
    paths.securityEventsExport,
    {
      schema: {
        operationId: 'adminExportSecurityEvents',
        tags,
        summary: 'The security log as CSV or JSON Lines, oldest first, streamed (filters as the list’s)',
        description:
          'A download (`text/csv` or `application/x-ndjson`), written as it is read, so a year of events ' +
          "takes no more memory than a page. CSV cells that a spreadsheet would run as a formula start with `'`.",
        security: bearerSecurity,
        querystring: exportQuery,
        response: {
          200: z.any().describe('The events, one a line (CSV after a header line)'),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) =>
      sendExport(reply, 'security-events', request.query.format, securityEvents.export(request.query)),
  );

  app.get(
    paths.securityEvent,
    {
      schema: {
        operationId: 'adminGetSecurityEvent',
        tags,
        summary: 'One security event',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: securityEventSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => securityEvents.get(request.params.id),
  );
};
