import fp from 'fastify-plugin';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import { createAccessTokens } from './auth/access-tokens.js';
import { createAccountSessions } from './auth/account-sessions.js';
import { passkeyRoutes } from './auth/passkey-routes.js';
import { createPasskeys, relyingPartyOf } from './auth/passkeys.js';
import { createPasswordHasher, type PasswordHasher } from './auth/password-hasher.js';
import { authRoutes } from './auth/routes.js';
import { createSecondFactorSignIn } from './auth/second-factor-sign-in.js';
import { createSecuritySettingsService } from './auth/security-settings.js';
import type { SignInObserver } from './auth/sign-in-observer.js';
import { securitySettingsRoutes } from './auth/security-settings-routes.js';
import { type AuthService, createAuthService } from './auth/service.js';
import { createStepUp } from './auth/step-up.js';
import { createSecretCipher } from './auth/totp.js';
import { twoFactorRoutes } from './auth/two-factor-routes.js';
import { createTwoFactorService } from './auth/two-factor-service.js';
import { apiTokensRoutes } from './api-tokens/routes.js';
import { createApiTokensService } from './api-tokens/service.js';
import { authenticatePlugin } from './plugins/authenticate.js';
import { registerSessionBindingCookie } from './plugins/session-binding-cookie.js';
import { stepUpPlugin } from './plugins/step-up.js';
import { resolveTwoFactorKey } from './two-factor-key.js';
import { usersRoutes } from './users/routes.js';
import { createUsersService } from './users/service.js';
import { createUnsubscribeService } from './users/unsubscribe.js';
import { unsubscribeRoutes } from './users/unsubscribe-routes.js';

/** What the contexts above identity use of it at composition (accounts made by invitation, by an admin). */
export interface IdentityContext {
  auth: AuthService;
  passwords: PasswordHasher;
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityContext;
    authService: AuthService;
  }
}

/**
 * Identity: accounts, sessions, second factors, passkeys and API tokens, and the guards
 * (`requireUser`, `requireAdmin`, step-up) every other context's routes use.
 */
export interface IdentityOptions {
  /** Told of each sign-in's end (the composition counts them for the metrics). */
  signIns?: SignInObserver;
}

export const identityContext = fp<IdentityOptions>(
  async (app, { signIns }) => {
    const { config, clock, db, dialect, serverSecret } = app.platform;
    const { mailer } = app;
    const accessTokens = createAccessTokens(
      {
        secret: serverSecret,
        issuer: config.jwt.issuer,
        audience: config.jwt.audience,
        ttlSeconds: config.jwt.accessTtlSeconds,
      },
      clock,
    );
    const passwords = createPasswordHasher(config.passwordHashing);
    const auth = createAuthService({
      db,
      clock,
      accessTokens,
      passwords,
      mailer,
      publicUrl: config.publicUrl,
      lockout: config.lockout,
      ...(signIns ? { signIns } : {}),
    });
    const twoFactor = createTwoFactorService({
      db,
      clock,
      cipher: createSecretCipher(await resolveTwoFactorKey({ db, dialect }, clock, config)),
    });
    app.platform.prepareMail(auth.mailPreparers);
    app.decorate('authService', auth);
    app.decorate('identity', { auth, passwords } satisfies IdentityContext);

    const bindingCookie = registerSessionBindingCookie(app, { publicUrl: config.publicUrl });
    const apiTokens = createApiTokensService({ db, clock });
    await app.register(authenticatePlugin, { auth, apiTokens });
    await app.register(stepUpPlugin, { db, clock });

    const rateLimitPerMinute = config.authRateLimitPerMinute;
    const users = createUsersService({ db, clock });
    await registerApiRoutes(app, async (api) => {
      await api.register(authRoutes, {
        auth,
        rateLimitPerMinute,
        bindingCookie,
        secondFactorSignIn: createSecondFactorSignIn({
          db,
          clock,
          lockout: config.lockout,
          twoFactor,
          startSession: auth.startSession,
          ...(signIns ? { signIns } : {}),
        }),
        stepUp: createStepUp({ db, clock, lockout: config.lockout, passwords, twoFactor }),
        sessions: createAccountSessions({ db, clock }),
      });
      await api.register(twoFactorRoutes, { twoFactor, rateLimitPerMinute });
      await api.register(securitySettingsRoutes, { settings: createSecuritySettingsService({ db, clock }) });
      await api.register(passkeyRoutes, {
        passkeys: createPasskeys({
          db,
          clock,
          rp: relyingPartyOf(config.publicUrl),
          lockout: config.lockout,
          startSession: auth.startSession,
          ...(signIns ? { signIns } : {}),
        }),
        rateLimitPerMinute,
      });
      await api.register(usersRoutes, { users });
      await api.register(unsubscribeRoutes, {
        unsubscribe: createUnsubscribeService({ db, links: app.platform.unsubscribeLinks, users }),
        publicUrl: config.publicUrl,
      });
      await api.register(apiTokensRoutes, { apiTokens });
    });
  },
  { name: 'identity', dependencies: ['platform'] },
);
