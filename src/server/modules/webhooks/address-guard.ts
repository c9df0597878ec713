import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** One address a host name stands for. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Turns a host name into its addresses; injectable so tests can play DNS without a DNS server. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

// Addresses a webhook must never reach from the server in production: the server's own machine,
// its private networks and the cloud's metadata service (169.254.169.254), and what cannot be a
// public host at all (unspecified, documentation, multicast, reserved).
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", including the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const)
  forbidden.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const)
  forbidden.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible or NAT64), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1] ?? '0', 16);
  const low = Number.parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for any address a webhook may not be sent to in production (IPv4 and IPv6). */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return forbidden.check(bare, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(bare);
  if (inner) return forbidden.check(inner, 'ipv4');
  return forbidden.check(bare, 'ipv6');
}

/** The host of a URL as a resolver or isIP wants it (IPv6 without brackets). */
export const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/** Why a URL cannot be an endpoint; the message is shown to the administrator. */
export class EndpointUrlRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EndpointUrlRefused';
  }
}

export interface AddressPolicy {
  /** Development and tests: loopback and private targets are allowed, and http to loopback. */
  allowPrivateTargets: boolean;
  resolver: HostResolver;
}

/**
 * Checks an endpoint's URL when it is registered or changed: https only (http to loopback when
 * private targets are allowed), no credentials in it, and in production no host that is, or
 * resolves to, a private address. Delivery checks the address again ({@link resolveDeliveryTarget}):
 * DNS may answer differently later.
 */
export async function checkEndpointUrl(raw: string, policy: AddressPolicy): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EndpointUrlRefused('webhook_url_invalid', 'Give a full URL, e.g. https://example.com/webhooks');
  }
  const host = bareHost(url);
  const loopbackHost = LOOPBACK_NAMES.has(host.toLowerCase());
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowPrivateTargets && loopbackHost))
    throw new EndpointUrlRefused(
      'webhook_url_not_https',
      policy.allowPrivateTargets
        ? 'The URL must start with https:// (http:// only to localhost, 127.0.0.1 or [::1])'
        : 'The URL must start with https://',
    );
  if (url.username || url.password)
    throw new EndpointUrlRefused(
      'webhook_url_credentials',
      'The URL must not contain a user name or password; verify deliveries with the signing secret instead',
    );
  if (url.hash) throw new EndpointUrlRefused('webhook_url_fragment', 'The URL must not contain a #fragment');
  if (policy.allowPrivateTargets) return url;
  if (loopbackHost || host.toLowerCase().endsWith('.localhost')) throw privateRefusal(host);
  if (isIP(host) !== 0) {
    if (isForbiddenAddress(host)) throw privateRefusal(host);
    return url;
  }
  // A name that does not resolve yet is accepted: delivery resolves it again and checks then.
  const addresses = await policy.resolver(host).catch(() => []);
  const bad = addresses.find(({ address }) => isForbiddenAddress(address));
  if (bad) throw privateRefusal(`${host} (${bad.address})`);
  return url;
}

const privateRefusal = (what: string) =>
  new EndpointUrlRefused(
    'webhook_url_private',
    `${what} is a private, loopback or link-local address; webhooks go only to public hosts`,
  );

/** Delivery refused before connecting: the host resolves to an address webhooks may not reach. */
export class DeliveryTargetRefused extends Error {
  override name = 'DeliveryTargetRefused';
}

/**
 * Where a delivery connects. With private targets allowed, wherever the system resolves the name
 * (null). Otherwise the host is resolved now and refused if any of its addresses is forbidden;
 * the request then connects to the very address checked, so a DNS answer that changes between
 * the check and the connection (rebinding) cannot reach a private address.
 */
export async function resolveDeliveryTarget(
  url: URL,
  policy: AddressPolicy,
): Promise<ResolvedAddress | null> {
  if (policy.allowPrivateTargets) return null;
  const host = bareHost(url);
  const family = isIP(host);
  const addresses: ResolvedAddress[] =
    family !== 0 ? [{ address: host, family: family === 6 ? 6 : 4 }] : await policy.resolver(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  const bad = addresses.find(({ address }) => isForbiddenAddress(address));
  if (bad)
    throw new DeliveryTargetRefused(
      `refused: ${host} resolves to ${bad.address}, a private, loopback or link-local address`,
    );
  return addresses[0] as ResolvedAddress;
}
