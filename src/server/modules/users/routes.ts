import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../../shared/api/errors.js';
import {
  changePasswordRequestSchema,
  preferencesSchema,
  updatePreferencesRequestSchema,
  updateProfileRequestSchema,
  userProfileSchema,
} from '../../../shared/api/users.js';
import { apiPaths } from '../../../shared/routes.js';
import { bearerSecurity, errorResponses } from '../../plugins/openapi-helpers.js';
import { currentUser } from '../../plugins/authenticate.js';
import { requestMeta } from '../../request-meta.js';
import type { AuthService } from '../auth/service.js';
import type { UsersService } from './service.js';

export interface UsersRoutesOptions {
  users: UsersService;
  auth: AuthService;
  rateLimitPerMinute: number;
}

const tags = ['users'];

export const usersRoutes: FastifyPluginAsyncZod<UsersRoutesOptions> = async (
  app,
  { users, auth, rateLimitPerMinute },
) => {
  app.addHook('preHandler', app.requireUser);
  const paths = apiPaths.users;

  app.get(
    paths.me,
    {
      schema: {
        tags,
        summary: 'The signed-in user',
        security: bearerSecurity,
        response: { 200: userProfileSchema, ...errorResponses(401) },
      },
    },
    async (request) => users.profile(currentUser(request).user),
  );

  app.put(
    paths.me,
    {
      schema: {
        tags,
        summary: 'Update the profile',
        security: bearerSecurity,
        body: updateProfileRequestSchema,
        response: { 200: userProfileSchema, ...errorResponses(400, 401, 415) },
      },
    },
    async (request) => users.updateProfile(currentUser(request).user, request.body),
  );

  app.put(
    paths.preferences,
    {
      schema: {
        tags,
        summary: 'Update preferences; only the keys sent change',
        security: bearerSecurity,
        body: updatePreferencesRequestSchema,
        response: { 200: preferencesSchema, ...errorResponses(400, 401, 415) },
      },
    },
    async (request) => users.updatePreferences(currentUser(request).user, request.body),
  );

  app.put(
    paths.password,
    {
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Change the password; signs out every device',
        security: bearerSecurity,
        body: changePasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 415, 429) },
      },
    },
    async (request) => ({
      message: await auth.changePassword(
        currentUser(request).user.id,
        request.body.current_password,
        request.body.new_password,
        requestMeta(request),
      ),
    }),
  );
};
