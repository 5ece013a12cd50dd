import { createSign, randomUUID } from 'node:crypto';
import type { PhoneConfig } from '../../config.ts';

/**
 * SMS and voice calls, behind one interface, through the provider the operator configures
 * (docs/guide-exploitation.md, « SMS et appels »). Each provider's base address is configurable: a regional
 * endpoint, or a local server that plays the provider in tests.
 */
export interface PhoneProvider {
  readonly name: 'twilio' | 'vonage';
  /** Sends a text message; resolves with the provider's message id. */
  sms(to: string, text: string): Promise<string>;
  /**
   * Calls and reads `text` in French with the provider's text-to-speech, then waits for a key:
   * the provider posts the key pressed to `answerUrl`. Null when this provider is not set up for calls.
   */
  call: ((to: string, text: string, answerUrl: string) => Promise<string>) | null;
}

/** A provider that refused or did not answer; `retry` is false when trying again cannot help. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retry = true,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;
export const PRESS_ONE = 'Appuyez sur 1 pour prendre l’alerte en compte.';

async function post(
  url: string,
  init: { headers: Record<string, string>; body: string },
  provider: string,
): Promise<{ status: number; json: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new ProviderError(timedOut ? `${provider} n’a pas répondu à temps.` : `${provider} est injoignable.`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, json };
}

function field(json: unknown, name: string): unknown {
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[name] : undefined;
}

/** 4xx but 408 and 429: the request itself is wrong (bad number, bad credentials); trying again changes nothing. */
const fatal = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

/** TwiML that reads the alert, then waits for one key and posts it to `answerUrl`. */
export function twilioCallTwiml(text: string, answerUrl: string): string {
  const say = (words: string) => `<Say language="fr-FR">${escapeXml(words)}</Say>`;
  return (
    `<Response><Gather input="dtmf" numDigits="1" timeout="10" method="POST" action="${escapeXml(answerUrl)}">` +
    `${say(text)}${say(PRESS_ONE)}</Gather>${say('Aucune touche reçue. Au revoir.')}</Response>`
  );
}

/** What a voice provider says once the key was read. */
export function spokenAnswer(provider: 'twilio' | 'vonage', words: string): { type: string; body: string } {
  return provider === 'twilio'
    ? { type: 'application/xml', body: `<Response><Say language="fr-FR">${escapeXml(words)}</Say></Response>` }
    : { type: 'application/json', body: JSON.stringify([{ action: 'talk', text: words, language: 'fr-FR' }]) };
}

function twilio(config: Extract<PhoneConfig, { provider: 'twilio' }>): PhoneProvider {
  const base = `${config.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}`;
  const headers = {
    authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  async function create(resource: string, fields: Record<string, string>): Promise<string> {
    const { status, json } = await post(`${base}/${resource}.json`, { headers, body: new URLSearchParams(fields).toString() }, 'Twilio');
    if (status >= 200 && status < 300 && typeof field(json, 'sid') === 'string') return field(json, 'sid') as string;
    const detail = typeof field(json, 'message') === 'string' ? ` : ${String(field(json, 'message'))}` : '';
    throw new ProviderError(`Twilio a répondu ${status}${detail}`, !fatal(status));
  }
  return {
    name: 'twilio',
    sms: (to, text) => create('Messages', { To: to, From: config.from, Body: text }),
    call: (to, text, answerUrl) => create('Calls', { To: to, From: config.from, Twiml: twilioCallTwiml(text, answerUrl) }),
  };
}

/** A Vonage application's JWT (RS256), as its Voice API asks. */
export function vonageJwt(applicationId: string, privateKey: string, now = Date.now()): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const iat = Math.floor(now / 1000);
  const unsigned = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ application_id: applicationId, iat, exp: iat + 300, jti: randomUUID() })}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(privateKey).toString('base64url');
  return `${unsigned}.${signature}`;
}

function vonage(config: Extract<PhoneConfig, { provider: 'vonage' }>): PhoneProvider {
  const digits = (e164: string) => e164.replace(/^\+/, '');
  const { applicationId, privateKey } = config;
  return {
    name: 'vonage',
    async sms(to, text) {
      const body = new URLSearchParams({
        api_key: config.apiKey,
        api_secret: config.apiSecret,
        from: config.from,
        to: digits(to),
        text,
        type: 'unicode',
      });
      const { status, json } = await post(
        `${config.smsUrl.replace(/\/+$/, '')}/sms/json`,
        { headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: body.toString() },
        'Vonage',
      );
      const messages = field(json, 'messages');
      const first = Array.isArray(messages) ? (messages[0] as unknown) : undefined;
      if (status === 200 && field(first, 'status') === '0') return String(field(first, 'message-id') ?? '');
      const detail = field(first, 'error-text');
      // Vonage's status 1 (throttled) and 5 (internal error) are worth trying again; the others are not.
      const retry = status !== 200 ? !fatal(status) : ['1', '5'].includes(String(field(first, 'status')));
      throw new ProviderError(`Vonage a refusé le SMS${typeof detail === 'string' ? ` : ${detail}` : ` (${status})`}`, retry);
    },
    call:
      applicationId && privateKey
        ? async (to, text, answerUrl) => {
            const body = {
              to: [{ type: 'phone', number: digits(to) }],
              from: { type: 'phone', number: digits(config.from) },
              ncco: [
                { action: 'talk', text: `${text} ${PRESS_ONE}`, language: 'fr-FR', bargeIn: true },
                { action: 'input', type: ['dtmf'], dtmf: { maxDigits: 1, timeOut: 10 }, eventUrl: [answerUrl], eventMethod: 'POST' },
              ],
            };
            const { status, json } = await post(
              `${config.voiceUrl.replace(/\/+$/, '')}/v1/calls`,
              {
                headers: { authorization: `Bearer ${vonageJwt(applicationId, privateKey)}`, 'content-type': 'application/json' },
                body: JSON.stringify(body),
              },
              'Vonage',
            );
            if (status >= 200 && status < 300 && typeof field(json, 'uuid') === 'string') return field(json, 'uuid') as string;
            const detail = field(json, 'title') ?? field(json, 'detail');
            throw new ProviderError(`Vonage a répondu ${status}${typeof detail === 'string' ? ` : ${detail}` : ''}`, !fatal(status));
          }
        : null,
  };
}

export function createPhoneProvider(config: PhoneConfig | null): PhoneProvider | null {
  if (!config) return null;
  return config.provider === 'twilio' ? twilio(config) : vonage(config);
}
