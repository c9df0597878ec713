import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { selfSignedCertificate } from './self-signed-certificate.js';

/** A person the identity provider signs in: their address is their account id. */
export interface SamlAccount {
  email: string;
  groups?: string[];
  name?: string;
}

/** How the next answer is made: each option one way an answer can be wrong (or an attack). */
export interface SamlAnswerOptions {
  /** Not signed at all. */
  unsigned?: boolean;
  /** Changes the signed XML afterwards (a tampered assertion). */
  tamper?: (xml: string) => string;
  /** Seconds the assertion is valid from now (negative: expired already); 300 unless set. */
  validForSeconds?: number;
  audience?: string;
  recipient?: string;
  /** The request answered: the AuthnRequest's ID unless set; null answers nothing asked (unsolicited). */
  inResponseTo?: string | null;
  assertionId?: string;
}

/** The form the provider's page posts to the service provider (HTTP-POST binding). */
export interface SamlPost {
  action: string;
  SAMLResponse: string;
  RelayState: string;
}

export interface TestSamlIdentityProvider {
  /** `http://127.0.0.1:<port>/metadata`: the entity id, and where the metadata is published. */
  entityId: string;
  metadataUrl: string;
  metadataXml: string;
  ssoUrl: string;
  /** Who the provider knows; a sign-in's `login_hint` chooses among them, else `signInAs`. */
  accounts: Map<string, SamlAccount>;
  /** Signs the next sign-ins in as this address (whatever the hint), until set to undefined. */
  signInAs: string | undefined;
  /** How the answers are made until set to undefined (for the bad-answer tests). */
  answerWith: SamlAnswerOptions | undefined;
  /** The IDs of the assertions signed so far, newest last. */
  assertionIds: string[];
  /**
   * Follows an AuthnRequest URL to the provider as a browser would and gives the form its page
   * would post back: the ACS, the signed SAMLResponse and the RelayState.
   */
  authorize(authnRequestUrl: string): Promise<SamlPost>;
  /** A new signing key from now on: the answers are signed with it and the metadata publishes it alone. */
  rotateKey(): void;
  close(): Promise<void>;
}

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const attributeOf = (xml: string, element: string, name: string) =>
  new RegExp(`<(?:\\w+:)?${element}\\b[^>]*\\s${name}="([^"]*)"`).exec(xml)?.[1];

/**
 * A SAML 2.0 identity provider on 127.0.0.1 for tests: it publishes its metadata, reads an
 * AuthnRequest sent by HTTP-Redirect, and answers with a page that posts a Response whose
 * assertion it signs (RSA-SHA256, exclusive c14n, xml-crypto) with its own generated key. There
 * is no sign-in page: the account the test chose is signed in.
 */
export async function startSamlIdentityProvider(): Promise<TestSamlIdentityProvider> {
  let key = selfSignedCertificate('Test SAML identity provider');
  const accounts = new Map<string, SamlAccount>();
  const state = {
    signInAs: undefined as string | undefined,
    answerWith: undefined as SamlAnswerOptions | undefined,
  };
  const assertionIds: string[] = [];
  const route: { to?: (request: IncomingMessage, response: ServerResponse) => void } = {};
  const server: Server = createServer((request, response) => route.to?.(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${origin}/metadata`;
  const ssoUrl = `${origin}/sso`;
  const metadataOf = (certificateBase64: string) => `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;

  /** The signed Response for the AuthnRequest, as base64. */
  function answer(request: { id: string; acs: string; audience: string }, account: SamlAccount): string {
    const options = state.answerWith ?? {};
    const now = Date.now();
    const instant = new Date(now).toISOString();
    const notBefore = new Date(now - 60_000).toISOString();
    const notOnOrAfter = new Date(now + (options.validForSeconds ?? 300) * 1000).toISOString();
    const inResponseTo = options.inResponseTo === undefined ? request.id : options.inResponseTo;
    const answering = inResponseTo === null ? '' : ` InResponseTo="${escape(inResponseTo)}"`;
    const recipient = options.recipient ?? request.acs;
    const assertionId = options.assertionId ?? `_a${randomBytes(16).toString('hex')}`;
    assertionIds.push(assertionId);
    const attribute = (name: string, values: string[]) =>
      `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
        .map((value) => `<saml:AttributeValue>${escape(value)}</saml:AttributeValue>`)
        .join('')}</saml:Attribute>`;
    const assertion =
      `<saml:Assertion xmlns:saml="${ASSERTION}" ID="${assertionId}" Version="2.0" IssueInstant="${instant}">` +
      `<saml:Issuer>${escape(entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escape(account.email)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData${answering} NotOnOrAfter="${notOnOrAfter}" Recipient="${escape(recipient)}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${escape(options.audience ?? request.audience)}</saml:Audience></saml:AudienceRestriction>` +
      `</saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="_s${randomBytes(8).toString('hex')}">` +
      `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
      `</saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attribute('email', [account.email])}${attribute('name', [account.name ?? account.email.split('@')[0]!])}${attribute('groups', account.groups ?? [])}</saml:AttributeStatement>` +
      `</saml:Assertion>`;
    let xml =
      `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${instant}" Destination="${escape(recipient)}"${answering}>` +
      `<saml:Issuer>${escape(entityId)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`;
    if (!options.unsigned) {
      const signer = new SignedXml({
        privateKey: key.privateKeyPem,
        publicCert: key.certificatePem,
        signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      });
      signer.addReference({
        xpath: "//*[local-name(.)='Assertion']",
        digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
        transforms: [
          'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
          'http://www.w3.org/2001/10/xml-exc-c14n#',
        ],
      });
      signer.computeSignature(xml, {
        prefix: 'ds',
        location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
      });
      xml = signer.getSignedXml();
    }
    if (options.tamper) xml = options.tamper(xml);
    return Buffer.from(xml, 'utf8').toString('base64');
  }

  /** The AuthnRequest of a redirect's query: its ID, ACS and issuer (our audience). */
  function readRequest(url: URL) {
    const encoded = url.searchParams.get('SAMLRequest');
    if (!encoded) throw new Error('no SAMLRequest');
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const id = attributeOf(xml, 'AuthnRequest', 'ID');
    const acs = attributeOf(xml, 'AuthnRequest', 'AssertionConsumerServiceURL');
    const audience = /<(?:\w+:)?Issuer\b[^>]*>([^<]*)</.exec(xml)?.[1];
    if (!id || !acs || !audience) throw new Error(`an AuthnRequest without ID, ACS or Issuer: ${xml}`);
    return { id, acs, audience };
  }

  route.to = (request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/metadata') {
      response.setHeader('content-type', 'application/samlmetadata+xml');
      response.end(metadataOf(key.certificateBase64));
      return;
    }
    if (url.pathname !== '/sso') {
      response.statusCode = 404;
      response.end('not found');
      return;
    }
    try {
      const authnRequest = readRequest(url);
      const accountId = state.signInAs ?? url.searchParams.get('login_hint') ?? undefined;
      const account = accountId ? accounts.get(accountId) : undefined;
      if (!account) {
        response.statusCode = 403;
        response.end('unknown account');
        return;
      }
      const samlResponse = answer(authnRequest, account);
      const relayState = url.searchParams.get('RelayState') ?? '';
      response.setHeader('content-type', 'text/html; charset=utf-8');
      // What identity providers answer: a page whose form posts itself to the service provider.
      response.end(
        `<!doctype html><html><body><form method="post" action="${escape(authnRequest.acs)}">` +
          `<input type="hidden" name="SAMLResponse" value="${samlResponse}">` +
          `<input type="hidden" name="RelayState" value="${escape(relayState)}">` +
          `<noscript><button type="submit">Continue</button></noscript></form>` +
          `<script>document.forms[0].submit()</script></body></html>`,
      );
    } catch (error) {
      response.statusCode = 400;
      response.end(String(error));
    }
  };

  const authorize = async (authnRequestUrl: string): Promise<SamlPost> => {
    const page = await fetch(authnRequestUrl);
    const html = await page.text();
    if (!page.ok) throw new Error(`the identity provider answered ${page.status}: ${html}`);
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
    const unescape = (value: string) =>
      value
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    return {
      action: unescape(/action="([^"]*)"/.exec(html)?.[1] ?? ''),
      SAMLResponse: field('SAMLResponse'),
      RelayState: unescape(field('RelayState')),
    };
  };

  return {
    entityId,
    metadataUrl: `${origin}/metadata`,
    get metadataXml() {
      return metadataOf(key.certificateBase64);
    },
    rotateKey() {
      key = selfSignedCertificate('Test SAML identity provider (rotated)');
    },
    ssoUrl,
    accounts,
    assertionIds,
    get signInAs() {
      return state.signInAs;
    },
    set signInAs(value) {
      state.signInAs = value;
    },
    get answerWith() {
      return state.answerWith;
    },
    set answerWith(value) {
      state.answerWith = value;
    },
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
