import fp from 'fastify-plugin';
import type { EventPublisher } from '../platform/events.js';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import { createAccountDeletion } from './account-data/deletion.js';
import { createDataExports } from './account-data/exports.js';
import { type AccountDataParts, noAccountDataParts } from './account-data/parts.js';
import { accountDataRoutes } from './account-data/routes.js';
import { createAccessTokens } from './auth/access-tokens.js';
import { createAccountSessions } from './auth/account-sessions.js';
import { passkeyRoutes } from './auth/passkey-routes.js';
import { createPasskeys, relyingPartyOf } from './auth/passkeys.js';
import { createPasswordGate, type PasswordGate } from './auth/password-gate.js';
import { createPasswordHasher, type PasswordHashCost, type PasswordHasher } from './auth/password-hasher.js';
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
import { createTokenUses, type TokenUses } from './api-tokens/token-uses.js';
import { authenticatePlugin } from './plugins/authenticate.js';
import { registerSessionBindingCookie } from './plugins/session-binding-cookie.js';
import { stepUpPlugin } from './plugins/step-up.js';
import { resolveTwoFactorKey } from './two-factor-key.js';
import { usersRoutes } from './users/routes.js';
import { createUsersService } from './users/service.js';
import type { IdentityEvent } from './events.js';
import { createUnsubscribeService } from './users/unsubscribe.js';
import { unsubscribeRoutes } from './users/unsubscribe-routes.js';

/** What the contexts above identity use of it at composition (accounts made by invitation, by an admin). */
export interface IdentityContext {
  auth: AuthService;
  passwords: PasswordHasher;
  /** Where licensing says which addresses must sign in through their organisation's provider. */
  passwordGate: PasswordGate;
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityContext;
    authService: AuthService;
    /** Calls made with API tokens waiting to be written; `flush()` writes them now. */
    apiTokenUses: TokenUses;
  }
}

/**
 * Identity: accounts, sessions, second factors, passkeys and API tokens, and the guards
 * (`requireUser`, `requireAdmin`, step-up) every other context's routes use.
 */
export interface IdentityOptions {
  /** Told of each sign-in's end (the composition counts them for the metrics). */
  signIns?: SignInObserver;
  /** Where identity announces an account's erasure, for the contexts above it to end what it held. */
  events?: EventPublisher<IdentityEvent>;
  /** What the contexts above hold of an account: their part of its export, and what holds its deletion back. */
  accountData?: AccountDataParts;
  /** argon2id's cost instead of OWASP's minimum (tests only; see PasswordHasherOptions). */
  passwordHashCost?: PasswordHashCost;
}

export const identityContext = fp<IdentityOptions>(
  async (app, { signIns, events, accountData = noAccountDataParts, passwordHashCost }) => {
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
    const passwords = createPasswordHasher({ ...config.passwordHashing, cost: passwordHashCost });
    const passwordGate = createPasswordGate();
    const auth = createAuthService({
      passwordGate,
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
    app.decorate('identity', { auth, passwords, passwordGate } satisfies IdentityContext);

    const bindingCookie = registerSessionBindingCookie(app, { publicUrl: config.publicUrl });
    const apiTokens = createApiTokensService({ db, clock });
    // Calls made with API tokens, counted per minute off the request path and written in batches.
    const tokenUses = createTokenUses({
      db,
      clock,
      flushIntervalMs: config.apiTokenUseFlushMs,
      onFlushError: (error) =>
        app.log.warn({ err: error }, 'API token uses not written; retried at the next flush'),
    });
    app.decorate('apiTokenUses', tokenUses);
    app.addHook('onClose', async () => {
      await tokenUses
        .close()
        .catch((error: unknown) =>
          app.log.error({ err: error }, 'API token uses could not be written at shutdown'),
        );
    });
    await app.register(authenticatePlugin, { auth, apiTokens, tokenUses });
    await app.register(stepUpPlugin, { db, clock });

    const rateLimitPerMinute = config.authRateLimitPerMinute;
    const users = createUsersService({ db, clock });
    const dataExports = createDataExports({
      db,
      clock,
      mailer,
      publicUrl: config.publicUrl,
      parts: accountData,
      log: app.log,
    });
    const accountDeletion = createAccountDeletion({
      db,
      clock,
      graceDays: config.accountDeletionGraceDays,
      parts: accountData,
      events,
      passwords,
      log: app.log,
    });
    app.platform.schedule({ name: 'data exports', run: () => dataExports.buildDue() });
    // Before the platform's scheduler closes (waiting for its run): a build stops and is handed back.
    app.addHook('preClose', (done) => {
      dataExports.stop();
      done();
    });
    app.platform.schedule({ name: 'account erasures', run: () => accountDeletion.eraseDue() });
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
          passwordGate,
          ...(signIns ? { signIns } : {}),
        }),
        rateLimitPerMinute,
      });
      await api.register(usersRoutes, { users });
      await api.register(accountDataRoutes, { exports: dataExports, deletion: accountDeletion });
      await api.register(unsubscribeRoutes, {
        unsubscribe: createUnsubscribeService({ db, links: app.platform.unsubscribeLinks, users }),
        publicUrl: config.publicUrl,
      });
      await api.register(apiTokensRoutes, { apiTokens });
    });
  },
  { name: 'identity', dependencies: ['platform'] },
);
