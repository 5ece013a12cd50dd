import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  DEFAULT_LADDER,
  type MemberScope,
  type MyPhoneResponse,
  type OnCallPerson,
  type OnCallResponse,
  type QuietHours,
  minutesOfDay,
  type UpdateOnCallRequest,
} from '@vigie/contract';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Database } from '../../db/database.ts';
import { AppError, badRequest } from '../../errors.ts';
import { createOnCallDal, type PhoneRecord } from './on-call-dal.ts';
import { localTime, slotAt } from './on-call-rota.ts';
import type { PhoneProvider } from './phone-providers.ts';

const CODE_TTL_MS = 10 * 60_000;
const CODES_PER_HOUR = 5;
const CODE_ATTEMPTS = 5;
const VOICE_TOKEN_TTL_S = 24 * 3600;

/** `+33 6 12 34 56 78`: an E.164 number as people read it. */
export function displayPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

/** Whether an instant falls in a person's quiet hours, on the site's wall clock (they may run past midnight). */
export function inQuietHours(hours: QuietHours | null, at: Date, timeZone: string): boolean {
  if (!hours) return false;
  const { minutes } = localTime(at, timeZone);
  const from = minutesOfDay(hours.from);
  const to = minutesOfDay(hours.to);
  return from < to ? minutes >= from && minutes < to : minutes >= from || minutes < to;
}

interface Person {
  id: string;
  name: string;
  scope: MemberScope | null;
}

/**
 * Each person's phone (checked by a code sent to it) and quiet hours, each site's on-call rota,
 * and the signed links a voice call answers on (docs/api.md, Astreinte, SMS et appels).
 */
export function createOnCallService(deps: {
  db: Database;
  now: () => Date;
  phone: PhoneProvider | null;
  /** Signs the voice calls' answer links. */
  secret: string;
  users: {
    /** The organization's members among these ids, with their names and scopes. */
    people(organizationId: string, ids: readonly string[]): Promise<Person[]>;
  };
  regions: {
    /** Those of these people whose scope holds the site. */
    covering(organizationId: string, siteId: string, people: readonly Person[]): Promise<Person[]>;
  };
  /** A site (its time zone); throws 404 for a site of another organization. */
  sites: { get(organizationId: string, siteId: string): Promise<{ timezone: string }> };
}) {
  const dal = createOnCallDal(deps.db);
  const channels = { sms: deps.phone !== null, call: deps.phone?.call != null };
  /** 128 bits of HMAC-SHA256 over a link's claims. */
  const sign = (payload: string) => createHmac('sha256', deps.secret).update(payload).digest().subarray(0, 16).toString('base64url');
  const codeHash = (userId: string, code: string) => createHash('sha256').update(`${userId}:${code}`).digest('hex');

  function view(row: PhoneRecord | undefined): MyPhoneResponse {
    return {
      phone: row?.number
        ? {
            number: row.number,
            display: displayPhone(row.number),
            verified: row.verifiedAt !== null,
            verifiedAt: row.verifiedAt?.toISOString() ?? null,
          }
        : null,
      quietHours: row?.quietHours ?? null,
      channels,
    };
  }

  /** The people on call for a site at an instant, in order, with their verified phones; those gone or out of scope are left out. */
  async function onCallAt(organizationId: string, siteId: string, at: Date, timeZone?: string) {
    const rota = await dal.rota(organizationId, siteId);
    const zone = timeZone ?? (await deps.sites.get(organizationId, siteId)).timezone;
    const found = rota ? slotAt(rota.slots, at, zone) : null;
    if (!rota || !found)
      return { slot: null, holiday: found?.holiday ?? null, people: [] as OnCallPerson[], ladder: rota?.ladder ?? DEFAULT_LADDER };
    const known = await deps.regions.covering(organizationId, siteId, await deps.users.people(organizationId, found.slot.people));
    const phones = new Map((await dal.ofUsers(organizationId, found.slot.people)).map((row) => [row.userId, row.number]));
    const people = found.slot.people.flatMap((id) => {
      const person = known.find((candidate) => candidate.id === id);
      return person ? [{ id, name: person.name, phone: phones.get(id) ?? null }] : [];
    });
    return { slot: found.index, holiday: found.holiday, people, ladder: rota.ladder };
  }

  async function rotaView(organizationId: string, siteId: string): Promise<OnCallResponse> {
    const zone = (await deps.sites.get(organizationId, siteId)).timezone;
    const rota = await dal.rota(organizationId, siteId);
    const current = await onCallAt(organizationId, siteId, deps.now(), zone);
    return {
      onCall: { slots: rota?.slots ?? [], ladder: rota?.ladder ?? DEFAULT_LADDER, updatedAt: rota?.updatedAt.toISOString() ?? null },
      now: { slot: current.slot, people: current.people, holiday: current.holiday },
    };
  }

  return {
    channels,

    async mine(userId: string): Promise<MyPhoneResponse> {
      return view(await dal.phone(userId));
    },

    /** Saves the number unverified and texts it a code; five codes an hour at most. */
    async setPhone(owner: { userId: string; organizationId: string }, raw: string): Promise<MyPhoneResponse> {
      const parsed = parsePhoneNumberFromString(raw, 'FR');
      if (!parsed?.isValid()) {
        throw badRequest('Numéro de téléphone invalide : écrivez-le comme « 06 12 34 56 78 » ou « +33 6 12 34 56 78 ».');
      }
      const type = parsed.getType();
      if (type !== undefined && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') {
        throw badRequest('Ce numéro ne reçoit pas de SMS : indiquez un numéro de portable.');
      }
      if (!deps.phone) {
        throw badRequest('Aucun fournisseur de SMS n’est configuré sur ce serveur : demandez à l’exploitant de régler PHONE_PROVIDER.');
      }
      const at = deps.now();
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const number = parsed.number;
      const row = await dal.takeCode(
        owner,
        { number, codeHash: codeHash(owner.userId, code), codeExpiresAt: new Date(at.getTime() + CODE_TTL_MS) },
        { perWindow: CODES_PER_HOUR, windowMs: 3600_000 },
        at,
      );
      if (!row) throw new AppError(429, 'Trop de codes demandés : réessayez dans une heure.');
      try {
        await deps.phone.sms(number, `Vigie : votre code de confirmation est ${code}. Il expire dans 10 minutes.`);
      } catch (error) {
        await dal.savePhone(owner, { codeHash: null, codeExpiresAt: null }, at);
        const reason = error instanceof Error ? error.message : String(error);
        throw new AppError(503, `Le SMS n’a pas pu partir (${reason}). Réessayez dans un instant.`);
      }
      return view(row);
    },

    async verify(userId: string, code: string): Promise<MyPhoneResponse> {
      const at = deps.now();
      // The attempt is taken before the code is compared: wrong codes sent at once are checked five at most.
      const row = await dal.takeAttempt(userId, CODE_ATTEMPTS, at);
      if (!row?.codeHash) {
        const current = await dal.phone(userId);
        if (!current?.number || !current.codeHash || !current.codeExpiresAt) throw badRequest('Aucun code en attente : demandez-en un.');
        if (current.codeExpiresAt <= at) throw badRequest('Ce code a expiré : demandez-en un nouveau.');
        throw badRequest('Trop d’essais : demandez un nouveau code.');
      }
      const given = Buffer.from(codeHash(userId, code));
      if (!timingSafeEqual(given, Buffer.from(row.codeHash))) throw badRequest('Code incorrect : vérifiez le SMS reçu.');
      const confirmed = await dal.confirm(userId, row.codeHash, at);
      if (!confirmed) throw badRequest('Aucun code en attente : demandez-en un.');
      return view(confirmed);
    },

    /** True when a number was there. */
    async removePhone(owner: { userId: string; organizationId: string }): Promise<boolean> {
      const row = await dal.phone(owner.userId);
      if (!row?.number) return false;
      await dal.savePhone(owner, { number: null, verifiedAt: null, codeHash: null, codeExpiresAt: null }, deps.now());
      return true;
    },

    async setQuietHours(owner: { userId: string; organizationId: string }, quietHours: QuietHours | null): Promise<MyPhoneResponse> {
      return view(await dal.savePhone(owner, { quietHours }, deps.now()));
    },

    rota: rotaView,

    async setRota(organizationId: string, siteId: string, body: UpdateOnCallRequest): Promise<OnCallResponse> {
      // A site of another organization is a 404, before anything else is read.
      await deps.sites.get(organizationId, siteId);
      const ids = [...new Set(body.slots.flatMap((slot) => slot.people))];
      const known = await deps.users.people(organizationId, ids);
      const unknown = ids.filter((id) => !known.some((person) => person.id === id));
      if (unknown.length > 0) throw badRequest('Une personne de l’astreinte n’est pas membre de l’organisation.');
      const seeing = await deps.regions.covering(organizationId, siteId, known);
      const blind = known.filter((person) => !seeing.some((kept) => kept.id === person.id));
      if (blind.length > 0) {
        throw badRequest(
          `${blind.map((person) => person.name).join(', ')} ne voi${blind.length > 1 ? 'ent' : 't'} pas ce site : élargissez sa portée ou choisissez quelqu’un d’autre.`,
        );
      }
      await dal.saveRota(organizationId, siteId, { slots: body.slots, ladder: body.ladder }, deps.now());
      return rotaView(organizationId, siteId);
    },

    onCallAt,

    /** Whether the organization has any rota: without one, no alert needs a look at them. */
    anyRota: (organizationId: string) => dal.anyRota(organizationId),

    /** The people among these who are in their quiet hours at `at`. */
    async quiet(organizationId: string, userIds: readonly string[], at: Date, timeZone: string): Promise<Set<string>> {
      const rows = await dal.ofUsers(organizationId, userIds);
      return new Set(rows.filter((row) => inQuietHours(row.quietHours, at, timeZone)).map((row) => row.userId));
    },

    /** A signed link for a call's answer: it names the organization, the alert and the person, for 24 hours (under 100 characters). */
    voiceToken(claims: { organizationId: string; alertId: string; userId: string }): string {
      const uuid = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');
      const expires = Buffer.alloc(4);
      expires.writeUInt32BE(Math.floor(deps.now().getTime() / 1000) + VOICE_TOKEN_TTL_S);
      const payload = Buffer.concat([uuid(claims.organizationId), uuid(claims.alertId), uuid(claims.userId), expires]).toString(
        'base64url',
      );
      return `${payload}.${sign(payload)}`;
    },

    /** The claims of a link this server signed and that has not expired, or null. */
    readVoiceToken(token: string): { organizationId: string; alertId: string; userId: string } | null {
      const [payload = '', signature = ''] = token.split('.');
      const expected = sign(payload);
      if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) return null;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length !== 52 || bytes.readUInt32BE(48) * 1000 < deps.now().getTime()) return null;
      const uuid = (from: number) =>
        bytes
          .subarray(from, from + 16)
          .toString('hex')
          .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
      return { organizationId: uuid(0), alertId: uuid(16), userId: uuid(32) };
    },
  };
}

export type OnCallService = ReturnType<typeof createOnCallService>;
