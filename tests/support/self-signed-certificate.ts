import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

// A self-signed X.509 certificate made with node:crypto alone, for test servers that need one
// (a SAML identity provider's signing certificate): the DER of a v3 certificate is short enough
// to write here, where a library for it would bring a dependency injection framework along.

const der = (tag: number, content: Buffer): Buffer => {
  const length =
    content.length < 0x80
      ? Buffer.from([content.length])
      : (() => {
          const bytes: number[] = [];
          for (let rest = content.length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
          return Buffer.from([0x80 | bytes.length, ...bytes]);
        })();
  return Buffer.concat([Buffer.from([tag]), length, content]);
};
const sequence = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => der(0x31, Buffer.concat(parts));
const integer = (bytes: Buffer) =>
  der(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const nullValue = () => Buffer.from([0x05, 0x00]);
const utf8 = (text: string) => der(0x0c, Buffer.from(text, 'utf8'));
const bitString = (bytes: Buffer) => der(0x03, Buffer.concat([Buffer.from([0]), bytes]));
const utcTime = (date: Date) =>
  der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`, 'ascii'));
function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const encoded = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) encoded.unshift((value & 0x7f) | 0x80);
    bytes.push(...encoded);
  }
  return der(0x06, Buffer.from(bytes));
}

const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), nullValue());
const commonName = (name: string) => sequence(set(sequence(oid('2.5.4.3'), utf8(name))));

/** An RSA key and a self-signed certificate for it, both PEM, and the certificate's base64 DER. */
export function selfSignedCertificate(name: string, days = 365) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const now = Date.now();
  const tbs = sequence(
    der(0xa0, integer(Buffer.from([2]))),
    // A positive serial with no leading zero byte (DER integers are minimal).
    integer(Buffer.concat([Buffer.from([0x40]), randomBytes(15)])),
    SHA256_WITH_RSA,
    commonName(name),
    sequence(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + days * 86_400_000))),
    commonName(name),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const certificate = sequence(tbs, SHA256_WITH_RSA, bitString(sign('sha256', tbs, privateKey)));
  const base64 = certificate.toString('base64');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatePem: `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`,
    certificateBase64: base64,
  };
}
