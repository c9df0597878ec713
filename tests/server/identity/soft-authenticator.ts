import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software WebAuthn authenticator: real ES256 key pairs, real attestation objects ('none') and
 * signed assertions, so the server's checks run on the very bytes a browser would send. Each
 * knob a test turns (origin, RP id, counter) changes what is signed, not what is checked.
 */

type CborValue = number | string | Uint8Array | CborMap | CborRecord;
type CborMap = Map<CborValue, CborValue>;
interface CborRecord {
  [key: string]: CborValue;
}

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const head = Buffer.alloc(3);
    head[0] = (major << 5) | 25;
    head.writeUInt16BE(length, 1);
    return head;
  }
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

/** The few CBOR types WebAuthn needs: integers, byte and text strings, maps. */
export function encodeCbor(value: CborValue): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([
    cborHead(5, entries.length),
    ...entries.flatMap(([key, item]) => [encodeCbor(key), encodeCbor(item)]),
  ]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  /** The COSE public key, as registered. */
  cosePublicKey: Buffer;
  userHandle: Buffer;
  counter: number;
}

export interface CeremonyPlace {
  origin: string;
  rpId: string;
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
  const counterBytes = Buffer.alloc(4);
  counterBytes.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes, ...(attested ? [attested] : [])]);
}

export function createSoftAuthenticator(options: { userVerified?: boolean } = {}) {
  const uv = options.userVerified === false ? 0 : FLAG_USER_VERIFIED;
  const credentials: SoftCredential[] = [];

  return {
    credentials,

    /** Answers `create()` options with a new credential: RegistrationResponseJSON. */
    register(
      creationOptions: { challenge: string; user: { id: string } },
      place: CeremonyPlace,
      initialCounter = 0,
    ) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cosePublicKey = encodeCbor(
        new Map<CborValue, CborValue>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, Buffer.from(jwk.x ?? '', 'base64url')],
          [-3, Buffer.from(jwk.y ?? '', 'base64url')],
        ]),
      );
      const credential: SoftCredential = {
        id: randomBytes(32),
        privateKey,
        cosePublicKey,
        userHandle: Buffer.from(creationOptions.user.id, 'base64url'),
        counter: initialCounter,
      };
      credentials.push(credential);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credential.id.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credential.id, cosePublicKey]);
      const authData = authenticatorData(
        place.rpId,
        FLAG_USER_PRESENT | uv | FLAG_ATTESTED_DATA,
        credential.counter,
        attested,
      );
      const attestationObject = encodeCbor({ fmt: 'none', attStmt: {}, authData });
      return {
        response: {
          id: b64url(credential.id),
          rawId: b64url(credential.id),
          type: 'public-key' as const,
          response: {
            clientDataJSON: b64url(clientData('webauthn.create', creationOptions.challenge, place.origin)),
            attestationObject: b64url(attestationObject),
            transports: ['internal'],
          },
          clientExtensionResults: {},
          authenticatorAttachment: 'platform',
        },
        credential,
      };
    },

    /**
     * Answers `get()` options with `credential` (the newest one by default): AuthenticationResponseJSON.
     * The counter moves on by one unless `counter` says what to sign.
     */
    assert(
      requestOptions: { challenge: string },
      place: CeremonyPlace,
      pick: { credential?: SoftCredential; counter?: number } = {},
    ) {
      const credential = pick.credential ?? credentials.at(-1);
      if (!credential) throw new Error('the soft authenticator holds no credential');
      credential.counter = pick.counter ?? credential.counter + 1;
      const authData = authenticatorData(place.rpId, FLAG_USER_PRESENT | uv, credential.counter);
      const clientDataJSON = clientData('webauthn.get', requestOptions.challenge, place.origin);
      const signature = sign(
        'sha256',
        Buffer.concat([authData, sha256(clientDataJSON)]),
        credential.privateKey,
      );
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: b64url(credential.userHandle),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}

export type SoftAuthenticator = ReturnType<typeof createSoftAuthenticator>;
