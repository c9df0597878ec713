import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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
// public host at all (unspecified, documentation, multicast, reserved). ipaddr.js names the
// special-purpose ranges; only its plain `unicast` (and for IPv6 only inside 2000::/3, the global
// unicast block) is a public host.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_LOCAL_USE = ipaddr.parseCIDR('64:ff9b:1::/48');

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);

/**
 * The IPv4 addresses an IPv6 address leads to, for the forms that carry one: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64
 * (64:ff9b::/96 and the local-use 64:ff9b:1::/48, in its /96 layout), 6to4 (2002:AABB:CCDD::)
 * and Teredo (2001:0:server:…:client, the client's address inverted in the last 32 bits). A
 * request to such an address reaches the IPv4 one, so that is what must be public. Undefined
 * for addresses that carry none; null for a form whose IPv4 cannot be told (refused).
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null | undefined {
  const parts = address.parts;
  const last = () => ipv4Of(parts[6] ?? 0, parts[7] ?? 0);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [last()];
    case 'rfc6052':
      // The local-use prefix may put the IPv4 elsewhere (RFC 6052's shorter layouts): only the
      // /96 layout, with zeros between prefix and address, is read; any other is refused.
      if (address.match(NAT64_LOCAL_USE) && parts.slice(3, 6).some((part) => part !== 0)) return null;
      return [last()];
    case '6to4':
      return [ipv4Of(parts[1] ?? 0, parts[2] ?? 0)];
    case 'teredo':
      return [
        ipv4Of(parts[2] ?? 0, parts[3] ?? 0),
        ipv4Of(~(parts[6] ?? 0) & 0xffff, ~(parts[7] ?? 0) & 0xffff),
      ];
    default:
      // IPv4-compatible (deprecated, ::/96): includes :: and ::1, which map into 0.0.0.0/8.
      return parts.slice(0, 6).every((part) => part === 0) ? [last()] : undefined;
  }
}

const isPublicIpv4 = (address: ipaddr.IPv4) => address.range() === 'unicast';

/** True for any address a webhook may not be sent to in production (IPv4 and IPv6). */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) === 0) return true;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return !isPublicIpv4(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const inner = embeddedIpv4(v6);
  if (inner === null) return true;
  if (inner) return !inner.every(isPublicIpv4);
  return v6.range() !== 'unicast' || !v6.match(GLOBAL_UNICAST_V6);
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
