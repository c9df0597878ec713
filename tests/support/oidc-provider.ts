import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person the provider signs in: their address is their account id. */
export interface ProviderAccount {
  email: string;
  groups?: string[];
  name?: string;
  /** What the ID token says of the address; true unless set. */
  emailVerified?: boolean;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`, the issuer the organisation is configured with. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the provider knows; a sign-in's `login_hint` chooses among them, else `signInAs`. */
  accounts: Map<string, ProviderAccount>;
  /** Signs the next sign-ins in as this address (whatever the hint), until set to undefined. */
  signInAs: string | undefined;
  /**
   * Follows an authorization URL as a browser would through the provider (its cookies kept) and
   * gives the URL the provider sends the browser back to, with code, state and iss.
   */
  authorize(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider, certified) on 127.0.0.1 for tests: one confidential
 * client (client_secret_basic, PKCE required), a `groups` claim, and a sign-in with no page of
 * its own: the interaction signs in the account the test chose and grants what was asked.
 */
export async function startOidcProvider(options: {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'portal';
  const clientSecret =
    options.clientSecret ?? `secret-${Math.random().toString(36).slice(2)}-of-the-test-client`;
  const accounts = new Map<string, ProviderAccount>();
  // The provider needs its issuer, which needs the port: the server starts first and hands over.
  const route: { to?: (request: IncomingMessage, response: ServerResponse) => void } = {};
  const server: Server = createServer((request, response) => route.to?.(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      groups: ['groups'],
    },
    // The claims go into the ID token itself, as most enterprise providers send them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-cookie-key-of-the-oidc-provider'] },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: account.emailVerified ?? true,
          name: account.name ?? account.email.split('@')[0],
          groups: account.groups ?? [],
        }),
      };
    },
    // Every client is first-party here: what it asks for is granted without a consent page.
    loadExistingGrant: async (ctx: {
      oidc: { client: { clientId: string }; session: { accountId: string }; params: { scope?: string } };
    }) => {
      const grant = new provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope(ctx.oidc.params.scope ?? 'openid');
      grant.addOIDCClaims(['email', 'email_verified', 'name', 'groups']);
      await grant.save();
      return grant;
    },
  });
  const oidcCallback = provider.callback();
  const state = { signInAs: undefined as string | undefined };

  route.to = (request, response) => {
    if (!request.url?.startsWith('/interaction/')) return oidcCallback(request, response);
    void (async () => {
      try {
        const details = await provider.interactionDetails(request, response);
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
        const accountId = state.signInAs ?? hint;
        if (!accountId || !accounts.has(accountId)) {
          await provider.interactionFinished(request, response, {
            error: 'access_denied',
            error_description: 'unknown account',
          });
          return;
        }
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId } },
          {
            mergeWithLastSubmission: false,
          },
        );
      } catch (error) {
        response.statusCode = 500;
        response.end(String(error));
      }
    })();
  };

  const authorize = async (authorizationUrl: string): Promise<URL> => {
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 10; hop++) {
      if (url.origin !== issuer) return url;
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const set of response.headers.getSetCookie()) {
        const [pair = ''] = set.split(';');
        const separator = pair.indexOf('=');
        const name = pair.slice(0, separator).trim();
        const value = pair.slice(separator + 1).trim();
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(set)) jar.delete(name);
        else jar.set(name, value);
      }
      const location = response.headers.get('location');
      if (!location)
        throw new Error(
          `the provider answered ${response.status} at ${url.pathname}: ${await response.text()}`,
        );
      url = new URL(location, url);
    }
    throw new Error('the provider redirected too often');
  };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    get signInAs() {
      return state.signInAs;
    },
    set signInAs(value) {
      state.signInAs = value;
    },
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
