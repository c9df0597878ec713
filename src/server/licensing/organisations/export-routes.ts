import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportQuerySchema } from '../../../shared/api/exports.js';
import { organisationParamsSchema } from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { sendExport } from '../../platform/exports/stream-export.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { OrganisationExportsService } from './exports.js';
import { managers } from './route-parts.js';

const tags = ['organisations'];
const paths = apiPaths.organisations;
const streamed =
  'A download (`text/csv` or `application/x-ndjson`), written as it is read: a year of records takes no ' +
  "more memory than a page. CSV cells that a spreadsheet would run as a formula start with `'`.";
const download = { 200: z.any().describe('The records, one a line (CSV after a header line)') };

/** An organisation's exports for audits: its seat ledger and its security events. */
export const organisationExportRoutes: FastifyPluginAsyncZod<{
  exports: OrganisationExportsService;
}> = async (app, { exports }) => {
  app.get(
    paths.seatLedgerExport,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'exportOrganisationSeatLedger',
        tags,
        summary: 'The seat ledger: each machine on a seat, who held it, from when to when',
        description: `Machines on a seat at any moment between \`from\` and \`to\`, in activation order. ${streamed} ${managers}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        querystring: exportQuerySchema,
        response: { ...download, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendExport(
        reply,
        'seat-ledger',
        request.query.format,
        await exports.seatLedger(request.params.organisationId, currentUser(request).user, request.query),
      ),
  );

  app.get(
    paths.securityEventsExport,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'exportOrganisationSecurityEvents',
        tags,
        summary: 'The organization’s security events between two dates, oldest first',
        description: `Every event that names the organization: members, roles, seats, invitations, domains. ${streamed} ${managers}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        querystring: exportQuerySchema,
        response: { ...download, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendExport(
        reply,
        'security-events',
        request.query.format,
        await exports.securityEvents(request.params.organisationId, currentUser(request).user, request.query),
      ),
  );
};
