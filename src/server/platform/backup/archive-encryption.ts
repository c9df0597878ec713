import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BackupError } from './backup-error.js';

/**
 * Encrypted archives: a header (magic, scrypt cost, salt, a check of the derived key), then the
 * archive in records of at most 64 KiB, each sealed with AES-256-GCM under its own nonce (its
 * number, and whether it is the last). Records rather than one GCM stream, so that nothing is
 * unpacked before it is authenticated, a wrong passphrase is told from damage at the first bytes,
 * and an archive cut short between records is told apart from a complete one.
 */
const MAGIC = Buffer.from('DAPBKE01');
/** 2^16: 64 MiB of memory and a few hundred milliseconds per guess. */
const SCRYPT_LOG_N = 16;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const CHECK_BYTES = 32;
const HEADER_BYTES = MAGIC.length + 3 + SALT_BYTES + CHECK_BYTES;
const RECORD_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const LAST_RECORD = 0x8000_0000;

/** Whether a file's first bytes are those of an encrypted archive. */
export const isEncryptedArchive = (start: Buffer): boolean =>
  start.length >= MAGIC.length && start.subarray(0, MAGIC.length).equals(MAGIC);

interface Keys {
  key: Buffer;
  /** Stored in the header so a wrong passphrase is reported as such, before any record is read. */
  check: Buffer;
}

function deriveKeys(passphrase: string, salt: Buffer, logN: number, r: number, p: number): Promise<Keys> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, 64, { N, r, p, maxmem: 256 * N * r }, (error, derived) => {
      if (error) reject(error);
      else
        resolve({
          key: derived.subarray(0, 32),
          check: createHash('sha256').update(derived.subarray(32)).digest(),
        });
    }),
  );
}

function nonce(counter: number, last: boolean): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.writeBigUInt64BE(BigInt(counter), 0);
  bytes[11] = last ? 1 : 0;
  return bytes;
}

/** Encrypts a stream with a passphrase. */
export function encryptingStream(passphrase: string): Transform {
  const salt = randomBytes(SALT_BYTES);
  const keys = deriveKeys(passphrase, salt, SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P);
  let pending = Buffer.alloc(0);
  let counter = 0;
  let started = false;

  const seal = (stream: Transform, key: Buffer, plain: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(counter++, last));
    const length = Buffer.alloc(4);
    length.writeUInt32BE((last ? LAST_RECORD : 0) + plain.length);
    cipher.setAAD(length);
    stream.push(Buffer.concat([length, cipher.update(plain), cipher.final(), cipher.getAuthTag()]));
  };

  const header = (check: Buffer) =>
    Buffer.concat([MAGIC, Buffer.from([SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P]), salt, check]);

  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      keys
        .then(({ key, check }) => {
          if (!started) {
            started = true;
            this.push(header(check));
          }
          pending = Buffer.concat([pending, chunk]);
          // A full record is sealed only once more follows: the last one must be marked as last.
          while (pending.length > RECORD_BYTES) {
            seal(this, key, pending.subarray(0, RECORD_BYTES), false);
            pending = pending.subarray(RECORD_BYTES);
          }
        })
        .then(() => done(), done);
    },
    flush(done: TransformCallback) {
      keys
        .then(({ key, check }) => {
          if (!started) this.push(header(check));
          seal(this, key, pending, true);
        })
        .then(() => done(), done);
    },
  });
}

/** Decrypts what {@link encryptingStream} wrote; fails with a {@link BackupError} that says why. */
export function decryptingStream(passphrase: string): Transform {
  let buffered = Buffer.alloc(0);
  let key: Buffer | undefined;
  let counter = 0;
  let ended = false;

  function openRecords(stream: Transform): void {
    while (key && buffered.length >= 4) {
      if (ended) throw new BackupError('The archive is damaged: there is data after its end.');
      const header = buffered.readUInt32BE(0);
      const last = header >= LAST_RECORD;
      const length = last ? header - LAST_RECORD : header;
      if (length > RECORD_BYTES)
        throw new BackupError('The archive is damaged (a record of impossible length).');
      const whole = 4 + length + TAG_BYTES;
      if (buffered.length < whole) return;
      const decipher = createDecipheriv('aes-256-gcm', key, nonce(counter++, last));
      decipher.setAAD(buffered.subarray(0, 4));
      decipher.setAuthTag(buffered.subarray(4 + length, whole));
      try {
        stream.push(Buffer.concat([decipher.update(buffered.subarray(4, 4 + length)), decipher.final()]));
      } catch {
        throw new BackupError('The archive is damaged: a part of it does not authenticate.');
      }
      buffered = buffered.subarray(whole);
      ended = last;
    }
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      buffered = Buffer.concat([buffered, chunk]);
      if (key || buffered.length < HEADER_BYTES) {
        try {
          openRecords(this);
          done();
        } catch (error) {
          done(error as Error);
        }
        return;
      }
      if (!isEncryptedArchive(buffered)) {
        done(new BackupError('This is not an encrypted backup archive.'));
        return;
      }
      const [logN = 0, r = 0, p = 0] = buffered.subarray(MAGIC.length, MAGIC.length + 3);
      const saltStart = MAGIC.length + 3;
      const salt = buffered.subarray(saltStart, saltStart + SALT_BYTES);
      const check = buffered.subarray(saltStart + SALT_BYTES, HEADER_BYTES);
      if (logN < 10 || logN > 22 || r < 1 || r > 32 || p < 1 || p > 16) {
        done(new BackupError('The archive is damaged (its encryption header is not valid).'));
        return;
      }
      deriveKeys(passphrase, salt, logN, r, p).then((derived) => {
        if (!timingSafeEqual(derived.check, check)) {
          done(new BackupError('Wrong passphrase: the archive cannot be decrypted with it.'));
          return;
        }
        key = derived.key;
        buffered = buffered.subarray(HEADER_BYTES);
        try {
          openRecords(this);
          done();
        } catch (error) {
          done(error as Error);
        }
      }, done);
    },
    flush(done: TransformCallback) {
      if (!key || !ended || buffered.length > 0)
        done(
          new BackupError('The archive is cut short: it ends before its last part (copied incompletely?).'),
        );
      else done();
    },
  });
}
