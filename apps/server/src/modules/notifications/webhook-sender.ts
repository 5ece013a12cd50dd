import { createHmac } from 'node:crypto';
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { badRequest } from '../../errors.ts';

export class WebhookTargetError extends Error {}
/** The target's name does not resolve now: not proof that it is private, only that it cannot be reached yet. */
export class UnresolvedTargetError extends WebhookTargetError {}

const PRIVATE_TARGET =
  'Adresse refusée : un webhook ne peut viser ni la machine elle-même, ni un réseau privé ou local, ni une adresse réservée.';

// IPv6 addresses that carry an IPv4 one: NAT64 (RFC 6052) and 6to4 (RFC 3056). The IPv4
// address decides; any other IPv6 address must be global unicast (2000::/3).
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** The IPv4 address inside an IPv4-mapped, NAT64 or 6to4 IPv6 address. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const bytes = address.toByteArray();
  if (address.match(NAT64)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (address.match(SIX_TO_FOUR)) return new ipaddr.IPv4(bytes.slice(2, 6));
  return null;
}

/**
 * The address as a connection reads it, in the URL standard's form: ipaddr.js would take the text
 * `::8.8.8.8` for the mapped ::ffff:8.8.8.8, while a socket connects to ::808:808.
 */
function canonicalAddress(address: string): string | null {
  try {
    return new URL(`http://${address.includes(':') ? `[${address}]` : address}/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

/**
 * True for an address on the public internet. Loopback, private, link-local (cloud metadata),
 * carrier-grade NAT, multicast, unspecified and reserved ranges are not, in any spelling: IPv4 in
 * decimal, octal or hexadecimal (read by ipaddr.js as an OS would), or inside IPv6 (compatible
 * `::127.0.0.1`, mapped, NAT64, 6to4, Teredo).
 */
export function isPublicAddress(address: string): boolean {
  const canonical = ipaddr.isValid(address) ? canonicalAddress(address) : null;
  if (canonical === null || !ipaddr.isValid(canonical)) return false;
  const parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const ipv6 = parsed as ipaddr.IPv6;
  const ipv4 = embeddedIPv4(ipv6);
  if (ipv4) return ipv4.range() === 'unicast';
  return ipv6.match(GLOBAL_UNICAST) && ipv6.range() === 'unicast';
}

/**
 * Resolves a webhook's host once and checks every address: a name that points at loopback or a
 * private network is refused unless the operator allows it. The request then connects to the
 * address checked here, so a DNS answer that changes in between cannot redirect it (rebinding).
 */
export async function resolveWebhookTarget(url: URL, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookTargetError('Seules les adresses http(s) sont acceptées.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const unresolved = () => new UnresolvedTargetError(`Le nom « ${host} » ne se résout pas : vérifiez l’adresse du webhook.`);
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
    : await dns.lookup(host, { all: true, verbatim: true }).catch(() => {
        throw unresolved();
      });
  if (addresses.length === 0) throw unresolved();
  if (!allowPrivate && !addresses.every(({ address }) => isPublicAddress(address))) throw new WebhookTargetError(PRIVATE_TARGET);
  const [first] = addresses;
  return { address: first?.address ?? host, family: first?.family === 6 ? 6 : 4 };
}

/**
 * Checks a webhook address when it is configured, as it will be checked again at each sending (a
 * DNS answer may change in between): a refusal is a French 400.
 */
export async function checkWebhookUrl(url: string, allowPrivate: boolean): Promise<void> {
  try {
    await resolveWebhookTarget(new URL(url), allowPrivate);
  } catch (error) {
    if (error instanceof WebhookTargetError) throw badRequest(error.message);
    throw error;
  }
}

/** `sha256=<hex>` of `<timestamp>.<body>` with the organization's secret, as the receiver recomputes it. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const TIMEOUT_MS = 10_000;

/**
 * POSTs `body` to `url`, connecting to the address `resolveWebhookTarget` checked (never to what a
 * second DNS answer says); resolves with the answer's status. Redirects are not followed.
 */
export async function postChecked(options: {
  url: URL;
  headers: Record<string, string | number>;
  body: string | Buffer;
  allowPrivate: boolean;
  /** What a timeout says, in French. */
  silent: string;
}): Promise<number> {
  const { url } = options;
  const target = await resolveWebhookTarget(url, options.allowPrivate);
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const request = client.request(
      url,
      { method: 'POST', lookup, timeout: TIMEOUT_MS, headers: { ...options.headers, 'content-length': Buffer.byteLength(options.body) } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('timeout', () => request.destroy(new Error(options.silent)));
    request.on('error', reject);
    request.end(options.body);
  });
}

/** POSTs a signed JSON body; resolves on a 2xx answer, rejects otherwise. Redirects are not followed. */
export async function sendWebhook(options: {
  url: string;
  secret: string;
  body: Record<string, unknown>;
  deliveryId: string;
  allowPrivate: boolean;
  now: Date;
}): Promise<void> {
  const payload = JSON.stringify(options.body);
  const timestamp = String(Math.floor(options.now.getTime() / 1000));
  const status = await postChecked({
    url: new URL(options.url),
    allowPrivate: options.allowPrivate,
    silent: 'Le webhook n’a pas répondu à temps.',
    body: payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Vigie-Webhook/1',
      'x-vigie-delivery': options.deliveryId,
      'x-vigie-timestamp': timestamp,
      'x-vigie-signature': signWebhook(options.secret, timestamp, payload),
    },
  });
  if (status < 200 || status >= 300) throw new Error(`Le webhook a répondu ${status}.`);
}
