import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  floatingBorrowRequestSchema,
  floatingCheckoutRequestSchema,
  floatingMachineRequestSchema,
  floatingMemberCheckoutRequestSchema,
  floatingMemberSeatSchema,
  floatingPeaksQuerySchema,
  floatingPeaksSchema,
  floatingReleaseSchema,
  floatingSeatAnswerSchema,
  floatingSeatParamsSchema,
  floatingConflictSchema,
  floatingSeatsSchema,
} from '../../../shared/api/floating.js';
import { idParamsSchema } from '../../../shared/api/common.js';
import { licenseRefusalSchema } from '../../../shared/api/licenses.js';
import { organisationParamsSchema } from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import type { Clock } from '../../platform/clock.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { createCheckRateLimit } from '../leases/check-rate-limit.js';
import type { FloatingService } from './service.js';

const paths = apiPaths.floating;
const tags = ['licensing'];
// A key the license check would refuse is refused here the same way.
const refusals = { 400: licenseRefusalSchema, 403: licenseRefusalSchema, 404: licenseRefusalSchema };

export interface FloatingRoutesOptions {
  floating: FloatingService;
  /** Calls per minute and client address on the machines' routes, as on the license check. */
  checksPerMinute: number;
  clock: Clock;
}

/**
 * Floating seats. The machines' routes take the key and hardware id as credentials, as the license
 * check does (the desktop calls them in the background); the seats' list, a seat freed by hand and
 * the daily peaks are for the license's owner, its organisation's managers and administrators.
 */
export const floatingRoutes: FastifyPluginAsyncZod<FloatingRoutesOptions> = async (
  app,
  { floating, checksPerMinute, clock },
) => {
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<ZodTypeProvider>();
    api.addHook(
      'onRequest',
      createCheckRateLimit(checksPerMinute, () => clock.now().getTime()),
    );

    api.post(
      paths.checkout,
      {
        schema: {
          operationId: 'checkoutFloatingSeat',
          tags,
          summary: 'Check a floating seat out for this machine',
          description:
            'The machine holds the seat while it sends a heartbeat every `heartbeat_seconds`; the seat comes back on release or when heartbeats stop for the plan’s lease. Checking out again renews the same seat (200). When every seat is held: 409 `floating_seats_full` with the holders, `retry_at` (the earliest held seat’s end) and a Retry-After header.',
          security: apiKeySecurity,
          body: floatingCheckoutRequestSchema,
          response: {
            200: floatingSeatAnswerSchema,
            201: floatingSeatAnswerSchema,
            ...refusals,
            409: floatingConflictSchema,
            ...errorResponses(415, 429),
          },
        },
      },
      async (request, reply) => {
        const { taken, ...seat } = await floating.checkout(request.body);
        return reply.code(taken ? 201 : 200).send(seat);
      },
    );

    api.post(
      paths.heartbeat,
      {
        schema: {
          operationId: 'heartbeatFloatingSeat',
          tags,
          summary: 'Keep this machine’s floating seat',
          description:
            'Renews the seat’s lease and answers a fresh signed lease. A machine whose seat lapsed gets 409 `floating_seat_lapsed` and checks out again.',
          security: apiKeySecurity,
          body: floatingMachineRequestSchema,
          response: { 200: floatingSeatAnswerSchema, ...refusals, ...errorResponses(409, 415, 429) },
        },
      },
      async (request) => floating.heartbeat(request.body),
    );

    api.post(
      paths.release,
      {
        schema: {
          operationId: 'releaseFloatingSeat',
          tags,
          summary: 'Give this machine’s floating seat back (the app quits)',
          security: apiKeySecurity,
          body: floatingMachineRequestSchema,
          response: { 200: floatingReleaseSchema, ...refusals, ...errorResponses(409, 415, 429) },
        },
      },
      async (request) => floating.release(request.body, 'release'),
    );

    api.post(
      paths.borrow,
      {
        schema: {
          operationId: 'borrowFloatingSeat',
          tags,
          summary: 'Borrow a floating seat for offline use',
          description:
            'Takes (or keeps) the machine’s seat for `days` (at most the plan’s `max_borrow_days`): it counts as held until returned or the borrow ends, whether or not heartbeats come. The lease is signed for the borrow and bound to the machine. All seats held: 409 `floating_seats_full`.',
          security: apiKeySecurity,
          body: floatingBorrowRequestSchema,
          response: {
            200: floatingSeatAnswerSchema,
            201: floatingSeatAnswerSchema,
            ...refusals,
            409: floatingConflictSchema,
            ...errorResponses(415, 429),
          },
        },
      },
      async (request, reply) => {
        const { taken, ...seat } = await floating.borrow(request.body);
        return reply.code(taken ? 201 : 200).send(seat);
      },
    );

    api.post(
      paths.returnBorrowed,
      {
        schema: {
          operationId: 'returnFloatingSeat',
          tags,
          summary: 'Return a borrowed floating seat early',
          security: apiKeySecurity,
          body: floatingMachineRequestSchema,
          response: { 200: floatingReleaseSchema, ...refusals, ...errorResponses(409, 415, 429) },
        },
      },
      async (request) => floating.release(request.body, 'return'),
    );
  });

  await app.register(async (scope) => {
    const api = scope.withTypeProvider<ZodTypeProvider>();
    api.addHook('onRequest', app.requireUser);
    const user = (request: Parameters<typeof currentUser>[0]) => currentUser(request).user;

    api.post(
      paths.memberCheckout,
      {
        schema: {
          operationId: 'checkoutOrganisationFloatingSeat',
          tags: ['organisations'],
          summary: 'Check a floating seat of my organization out for this machine (signed in)',
          description:
            'For members of an organization on a floating plan: no key is typed and no named seat is needed. ' +
            'Takes (or renews) this machine’s seat as `/licensing/floating/checkout` does, and answers ' +
            '`seat_key`, this machine’s own key for the heartbeats, release, borrow and the license check ' +
            '(it works only with this hardware id; each call gives a fresh one and the one before stops). ' +
            '409 `floating_seats_full` with the holders when every seat is out, `license_not_floating` on a ' +
            'plan with named seats; 403 `not_a_member` for a platform administrator outside it; 404 for ' +
            'anyone else outside the organization.',
          security: bearerSecurity,
          params: organisationParamsSchema,
          body: floatingMemberCheckoutRequestSchema,
          response: {
            200: floatingMemberSeatSchema,
            201: floatingMemberSeatSchema,
            409: floatingConflictSchema,
            ...errorResponses(400, 401, 403, 404, 415),
          },
        },
      },
      async (request, reply) => {
        const { taken, ...seat } = await floating.checkoutAsMember(
          user(request),
          request.params.organisationId,
          request.body,
        );
        return reply.code(taken ? 201 : 200).send(seat);
      },
    );

    api.get(
      paths.seats,
      {
        schema: {
          operationId: 'listFloatingSeats',
          tags: ['licenses'],
          summary: 'The machines holding a floating license’s seats now',
          description: 'For the license’s owner, its organization’s owner and admins, and administrators.',
          security: bearerSecurity,
          params: idParamsSchema,
          response: { 200: floatingSeatsSchema, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (request) => floating.seats(user(request), request.params.id),
    );

    api.delete(
      paths.seat,
      {
        schema: {
          operationId: 'releaseFloatingSeatByHand',
          tags: ['licenses'],
          summary: 'Free a floating seat held by a machine (owner or administrator)',
          security: bearerSecurity,
          params: floatingSeatParamsSchema,
          response: { 200: floatingSeatsSchema, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (request) => floating.releaseByHand(user(request), request.params.id, request.params.seatId),
    );

    api.get(
      paths.peaks,
      {
        schema: {
          operationId: 'getFloatingPeaks',
          tags: ['licenses'],
          summary: 'The most floating seats held at once per day',
          security: bearerSecurity,
          params: idParamsSchema,
          querystring: floatingPeaksQuerySchema,
          response: { 200: floatingPeaksSchema, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (request) => floating.peaks(user(request), request.params.id, request.query.days),
    );
  });
};
