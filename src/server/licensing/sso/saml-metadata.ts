import { X509Certificate } from 'node:crypto';
import { MAX_SAML_METADATA_CHARS, type SamlCertificate } from '../../../shared/api/organisation-sso.js';
import { badRequest, HttpError } from '../../platform/http-error.js';
import { childrenOf, parseXml } from './xml-document.js';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const METADATA_TIMEOUT_MS = 10_000;

/** What a SAML identity provider's metadata says that a sign-in needs. */
export interface IdpMetadata {
  entityId: string;
  /** Its SingleSignOnService for the HTTP-Redirect binding. */
  ssoUrl: string;
  /** Base64 DER of each certificate it signs with. */
  certificates: string[];
}

const invalid = (why: string) =>
  badRequest('saml_metadata_invalid', `The identity provider’s metadata cannot be used: ${why}.`);

/**
 * Reads an identity provider's metadata: an EntityDescriptor (alone, or the first of an
 * EntitiesDescriptor with an IDPSSODescriptor) giving its entity id, its HTTP-Redirect sign-in
 * URL and the certificates of its signing keys. A DOCTYPE is refused outright (no entities).
 * Anything missing or malformed is a 400 `saml_metadata_invalid` saying what.
 */
export function parseIdpMetadata(xml: string, { allowHttp }: { allowHttp: boolean }): IdpMetadata {
  if (/<!DOCTYPE/i.test(xml)) throw invalid('it has a DOCTYPE, which is not accepted');
  const { root, problems } = parseXml(xml);
  if (problems.length > 0 || !root)
    throw invalid(`it is not well-formed XML (${(problems[0] ?? 'empty').split('\n')[0]})`);
  if (root.namespaceURI !== MD) throw invalid('it is not SAML 2.0 metadata (no EntityDescriptor)');
  const candidates =
    root.localName === 'EntityDescriptor'
      ? [root]
      : root.localName === 'EntitiesDescriptor'
        ? childrenOf(root, MD, 'EntityDescriptor')
        : [];
  const entity = candidates.find((candidate) => childrenOf(candidate, MD, 'IDPSSODescriptor').length > 0);
  if (!entity) throw invalid('it describes no identity provider (no IDPSSODescriptor)');
  const entityId = entity.getAttribute('entityID')?.trim() ?? '';
  if (!entityId) throw invalid('its EntityDescriptor has no entityID');
  if (entityId.length > 500) throw invalid('its entityID is longer than 500 characters');
  const idp = childrenOf(entity, MD, 'IDPSSODescriptor')[0]!;

  const redirect = childrenOf(idp, MD, 'SingleSignOnService').find(
    (service) => service.getAttribute('Binding') === REDIRECT_BINDING,
  );
  const location = redirect?.getAttribute('Location')?.trim();
  if (!location) throw invalid('it has no SingleSignOnService for the HTTP-Redirect binding');
  let ssoUrl: URL;
  try {
    ssoUrl = new URL(location);
  } catch {
    throw invalid(`its SingleSignOnService location is not a URL (${location.slice(0, 100)})`);
  }
  if (ssoUrl.protocol !== 'https:' && !(allowHttp && ssoUrl.protocol === 'http:'))
    throw invalid('its SingleSignOnService must be an https:// URL');

  const certificates: string[] = [];
  for (const descriptor of childrenOf(idp, MD, 'KeyDescriptor')) {
    const use = descriptor.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const info of childrenOf(descriptor, DS, 'KeyInfo'))
      for (const data of childrenOf(info, DS, 'X509Data'))
        for (const certificate of childrenOf(data, DS, 'X509Certificate')) {
          const base64 = (certificate.textContent ?? '').replace(/\s+/g, '');
          try {
            new X509Certificate(Buffer.from(base64, 'base64'));
          } catch {
            throw invalid('one of its signing certificates cannot be read');
          }
          if (!certificates.includes(base64)) certificates.push(base64);
        }
  }
  if (certificates.length === 0)
    throw invalid('it has no signing certificate (KeyDescriptor with an X509Certificate)');
  return { entityId, ssoUrl: ssoUrl.href, certificates };
}

/**
 * Reads the metadata at `url`, once, when the settings are saved: https:// only unless http is
 * allowed (SSO_ALLOW_HTTP_ISSUERS), no redirects, ten seconds and the metadata's size at most.
 * A provider that does not answer is a 502 `saml_metadata_unreachable`.
 */
export async function fetchIdpMetadata(url: string, { allowHttp }: { allowHttp: boolean }): Promise<string> {
  if (url.startsWith('http:') && !allowHttp)
    throw badRequest('metadata_url_not_https', 'The metadata URL must be an https:// URL.');
  const unreachable = (why: string) =>
    new HttpError(
      502,
      'saml_metadata_unreachable',
      `The identity provider’s metadata at ${url} could not be read (${why}). Check the URL, or paste the metadata.`,
    );
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: 'error',
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
    });
  } catch (error) {
    throw unreachable(error instanceof Error ? error.message : 'no answer');
  }
  if (!response.ok) throw unreachable(`HTTP ${response.status}`);
  // Said too large up front: not read at all.
  if (Number(response.headers.get('content-length') ?? 0) > MAX_SAML_METADATA_CHARS * 4)
    throw unreachable('it is larger than metadata should be');
  const text = await response.text();
  if (text.length > MAX_SAML_METADATA_CHARS) throw unreachable('it is larger than metadata should be');
  return text;
}

/** A certificate as the settings show it: whose, until when, and its fingerprint to compare. */
export function certificateView(base64: string): SamlCertificate {
  const certificate = new X509Certificate(Buffer.from(base64, 'base64'));
  return {
    subject: certificate.subject.replace(/\n/g, ', '),
    not_after: new Date(certificate.validTo).toISOString(),
    sha256_fingerprint: certificate.fingerprint256,
  };
}

/** A base64 DER certificate as PEM, the form the signature check takes. */
export const pemOf = (base64: string): string =>
  `-----BEGIN CERTIFICATE-----\n${(base64.match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----\n`;
