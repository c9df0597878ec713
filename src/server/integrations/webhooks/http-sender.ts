import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './address-guard.js';

/** What an endpoint answered, or why there was no answer. */
export interface SendOutcome {
  status: number | null;
  headers: Record<string, string> | null;
  /** The first {@link RESPONSE_BODY_LIMIT} bytes, as text. */
  body: string | null;
  error: string | null;
  durationMs: number;
}

/** Enough of an answer to see what went wrong; the rest is not read. */
export const RESPONSE_BODY_LIMIT = 4096;

/** A lookup that answers with the one address already checked, whatever DNS says now. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is an answer like any other, and only a
 * 2xx counts as delivered), the whole exchange must end within `timeoutMs`, and only the start
 * of the answer's body is read. Never throws: every failure is an outcome with `error`.
 */
export function sendWebhookRequest(input: {
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Connect to this address (checked against private ranges) instead of resolving again. */
  target: ResolvedAddress | null;
}): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = input.url.protocol === 'https:' ? https : http;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = client.request(input.url, {
      method: 'POST',
      headers: { ...input.headers, 'content-length': Buffer.byteLength(input.body).toString() },
      ...(input.target ? { lookup: pinnedLookup(input.target) } : {}),
      // One connection per delivery: no pooled socket keeps an address that was checked earlier.
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${input.timeoutMs} ms`));
    }, input.timeoutMs);
    request.on('error', (error) =>
      finish({ status: null, headers: null, body: null, error: error.message || String(error) }),
    );
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        finish({
          status: response.statusCode ?? null,
          headers: flattenHeaders(response.headers),
          body,
          error: null,
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) done();
      });
      response.on('end', done);
      response.on('error', (error) =>
        finish({
          status: response.statusCode ?? null,
          headers: flattenHeaders(response.headers),
          body: Buffer.concat(chunks).toString('utf8'),
          error: error.message,
        }),
      );
    });
    request.end(input.body);
  });
}
