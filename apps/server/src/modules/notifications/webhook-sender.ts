import { createHmac } from 'node:crypto';
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export class WebhookTargetError extends Error {}

/** True for an address on the public internet; loopback, private, link-local, multicast and reserved ranges are not. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * Resolves a webhook's host once and checks every address: a name that points at loopback or a
 * private network is refused unless the operator allows it. The request then connects to the
 * address checked here, so a DNS answer that changes in between cannot redirect it (rebinding).
 */
export async function resolveWebhookTarget(url: URL, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new WebhookTargetError('Seules les adresses http(s) sont acceptées.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
    : await dns.lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new WebhookTargetError(`Le nom « ${host} » ne se résout pas.`);
      });
  if (addresses.length === 0) throw new WebhookTargetError(`Le nom « ${host} » ne se résout pas.`);
  if (!allowPrivate && !addresses.every(({ address }) => isPublicAddress(address))) {
    throw new WebhookTargetError('Adresse refusée : un webhook ne peut viser ni la machine elle-même ni un réseau privé.');
  }
  const [first] = addresses;
  return { address: first?.address ?? host, family: first?.family === 6 ? 6 : 4 };
}

/** `sha256=<hex>` of `<timestamp>.<body>` with the organization's secret, as the receiver recomputes it. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const TIMEOUT_MS = 10_000;

/** POSTs a signed JSON body; resolves on a 2xx answer, rejects otherwise. Redirects are not followed. */
export async function sendWebhook(options: {
  url: string;
  secret: string;
  body: Record<string, unknown>;
  deliveryId: string;
  allowPrivate: boolean;
  now: Date;
}): Promise<void> {
  const url = new URL(options.url);
  const target = await resolveWebhookTarget(url, options.allowPrivate);
  const payload = JSON.stringify(options.body);
  const timestamp = String(Math.floor(options.now.getTime() / 1000));
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  await new Promise<void>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup,
        timeout: TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'user-agent': 'Vigie-Webhook/1',
          'x-vigie-delivery': options.deliveryId,
          'x-vigie-timestamp': timestamp,
          'x-vigie-signature': signWebhook(options.secret, timestamp, payload),
        },
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(new Error(`Le webhook a répondu ${status}.`));
      },
    );
    request.on('timeout', () => request.destroy(new Error('Le webhook n’a pas répondu à temps.')));
    request.on('error', reject);
    request.end(payload);
  });
}
