import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  preferencesSchema,
  updatePreferencesRequestSchema,
  updateProfileRequestSchema,
  userProfileSchema,
} from '../../../shared/api/users.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { currentUser } from '../plugins/authenticate.js';
import type { UsersService } from './service.js';

export interface UsersRoutesOptions {
  users: UsersService;
}

const tags = ['users'];

export const usersRoutes: FastifyPluginAsyncZod<UsersRoutesOptions> = async (app, { users }) => {
  app.addHook('onRequest', app.requireUser);
  const paths = apiPaths.users;

  app.get(
    paths.me,
    {
      schema: {
        operationId: 'getCurrentUser',
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
        operationId: 'updateProfile',
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
        operationId: 'updatePreferences',
        tags,
        summary: 'Update preferences; only the keys sent change',
        security: bearerSecurity,
        body: updatePreferencesRequestSchema,
        response: { 200: preferencesSchema, ...errorResponses(400, 401, 415) },
      },
    },
    async (request) => users.updatePreferences(currentUser(request).user, request.body),
  );
};
