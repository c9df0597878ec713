import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/server/platform/http-error.js';
import { certificateView, parseIdpMetadata } from '../../../src/server/licensing/sso/saml-metadata.js';
import { selfSignedCertificate } from '../../support/self-signed-certificate.js';

// The identity provider's metadata as providers publish it: alone or in a federation's list,
// with signing and encryption keys, one certificate or two while one is being rolled over.

const signing = selfSignedCertificate('Signing key');
const next = selfSignedCertificate('Next signing key');
const encryption = selfSignedCertificate('Encryption key');

const keyDescriptor = (base64: string, use?: string) =>
  `<md:KeyDescriptor${use ? ` use="${use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>
${base64.match(/.{1,64}/g)!.join('\n')}
</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

const entity = (entityId: string, idp: string) =>
  `<md:EntityDescriptor entityID="${entityId}">${idp}</md:EntityDescriptor>`;
const idpDescriptor = (keys: string, location = 'https://idp.example.com/sso') =>
  `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}` +
  `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example.com/post"/>` +
  `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${location}"/>` +
  `</md:IDPSSODescriptor>`;
const NAMESPACES =
  'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"';

const refusal = (run: () => unknown): HttpError => {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('an identity provider’s SAML metadata', () => {
  it('gives the entity id, the HTTP-Redirect sign-in URL and the signing certificates only', () => {
    const xml = entity(
      'https://idp.example.com/saml',
      idpDescriptor(
        keyDescriptor(signing.certificateBase64, 'signing') +
          keyDescriptor(next.certificateBase64) +
          keyDescriptor(encryption.certificateBase64, 'encryption'),
      ),
    ).replace('<md:EntityDescriptor ', `<md:EntityDescriptor ${NAMESPACES} `);
    expect(parseIdpMetadata(xml, { allowHttp: false })).toEqual({
      entityId: 'https://idp.example.com/saml',
      ssoUrl: 'https://idp.example.com/sso',
      certificates: [signing.certificateBase64, next.certificateBase64],
    });
    expect(certificateView(signing.certificateBase64)).toMatchObject({
      subject: 'CN=Signing key',
      sha256_fingerprint: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
    });
  });

  it('finds the identity provider in a federation’s EntitiesDescriptor', () => {
    const xml =
      `<md:EntitiesDescriptor ${NAMESPACES}>` +
      `<md:EntityDescriptor entityID="https://sp.example.com"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>` +
      entity('https://idp.example.com/saml', idpDescriptor(keyDescriptor(signing.certificateBase64))) +
      `</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(xml, { allowHttp: false }).entityId).toBe('https://idp.example.com/saml');
  });

  it('refuses an http:// sign-in URL unless http is allowed, and says so', () => {
    const xml = entity(
      'https://idp.example.com/saml',
      idpDescriptor(keyDescriptor(signing.certificateBase64), 'http://idp.example.com/sso'),
    ).replace('<md:EntityDescriptor ', `<md:EntityDescriptor ${NAMESPACES} `);
    const refused = refusal(() => parseIdpMetadata(xml, { allowHttp: false }));
    expect(refused).toMatchObject({ statusCode: 400, code: 'saml_metadata_invalid' });
    expect(refused.message).toContain('https://');
    expect(parseIdpMetadata(xml, { allowHttp: true }).ssoUrl).toBe('http://idp.example.com/sso');
  });
});
