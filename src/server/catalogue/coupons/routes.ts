import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  couponListSchema,
  couponPreviewRequestSchema,
  couponPreviewSchema,
  couponSchema,
  createCouponRequestSchema,
  updateCouponRequestSchema,
} from '../../../shared/api/coupons.js';
import { idParamsSchema } from '../../../shared/api/common.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../platform/http/current-user.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import type { CouponsService } from './service.js';

const tags = ['coupons'];
const paths = apiPaths.coupons;

/** A customer previews a coupon on a plan; administrators list, create and change coupons. */
export const couponsRoutes: FastifyPluginAsyncZod<{ coupons: CouponsService }> = async (app, { coupons }) => {
  app.post(
    paths.preview,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'previewCoupon',
        tags,
        summary: 'What a coupon takes off a plan, before buying (nothing is redeemed)',
        description:
          'Refused with 404 for an unknown or archived code, 409 when it has expired, has been used as often as ' +
          'it allows, was already used by you, or is an amount in another currency.',
        security: bearerSecurity,
        body: couponPreviewRequestSchema,
        response: { 200: couponPreviewSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => coupons.preview(currentUser(request).user, request.body),
  );

  app.get(
    paths.adminList,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListCoupons',
        tags,
        summary: 'Every coupon, newest first, with how often each was redeemed',
        security: bearerSecurity,
        response: { 200: couponListSchema, ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: await coupons.admin.list() }),
  );

  app.post(
    paths.adminList,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminCreateCoupon',
        tags,
        summary: 'Create a coupon: a percentage or an amount off, once or on every charge',
        security: bearerSecurity,
        body: createCouponRequestSchema,
        response: { 201: couponSchema, ...errorResponses(400, 401, 403, 409, 415) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await coupons.admin.create(actorOf(request), request.body)),
  );

  app.put(
    paths.adminDetail,
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminUpdateCoupon',
        tags,
        summary: 'Change a coupon’s description, expiry or limit, or archive it (no longer accepted)',
        security: bearerSecurity,
        params: idParamsSchema,
        body: updateCouponRequestSchema,
        response: { 200: couponSchema, ...errorResponses(400, 401, 403, 404, 415) },
      },
    },
    async (request) => coupons.admin.update(actorOf(request), request.params.id, request.body),
  );
};
