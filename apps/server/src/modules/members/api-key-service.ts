import { createHash, randomBytes } from 'node:crypto';
import type { ApiKey, CreateApiKeyRequest, MemberScope, User } from '@vigie/contract';
import type { Database } from '../../db/database.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { SessionEnded } from '../auth/session-service.ts';
import type { UserService } from '../auth/user-service.ts';
import { type ApiKeyRecord, createApiKeyDal } from './api-key-dal.ts';

/** A key reads `vk_` then 43 base64url characters (32 random bytes): recognisable, and far beyond guessing. */
const KEY_PATTERN = /^vk_[A-Za-z0-9_-]{43}$/;
/** What a list shows of a key: `vk_` and its next 8 characters. */
const PREFIX_LENGTH = 11;
/** A key's `lastUsedAt` is written at most once per this (per key, whichever instance). */
const TOUCH_EVERY_MS = 60_000;

export const API_KEY_NOT_FOUND = 'Clé d’API introuvable.';
export const API_KEY_INVALID = 'Clé d’API invalide, révoquée ou expirée.';

/** Whether a bearer token is shaped like an API key (rather than a session's token). */
export const looksLikeApiKey = (token: string): boolean => token.startsWith('vk_');

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** Who a key is, for the audit trail and the permissions. */
export interface ApiKeyIdentity {
  id: string;
  name: string;
  prefix: string;
}

/** What a request made with a valid key acts as: a member of the key's role and scope, and the key. */
export interface ApiKeyCaller {
  user: User;
  apiKey: ApiKeyIdentity;
}

function toApiKey(record: ApiKeyRecord): ApiKey {
  return {
    id: record.id,
    name: record.name,
    role: record.role,
    scope: record.scope ?? null,
    prefix: record.prefix,
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
  };
}

/** How a key is named where a person's name would be (the audit trail, the names records keep). */
export const apiKeyActorName = (name: string) => `Clé d’API « ${name} »`;

/**
 * The organization's API keys (docs/api.md, Clés d’API). Only the SHA-256 of a key is stored. A
 * key in use is kept in memory like a session (`ttlMs`, forgotten as it is revoked here or heard
 * revoked from another instance, read from the database on every request while the bus is deaf),
 * so that a revoked key is refused at once everywhere.
 */
export function createApiKeyService(deps: {
  db: Database;
  now: () => Date;
  users: Pick<UserService, 'getById'>;
  validateScope: (organizationId: string, scope: MemberScope | null) => Promise<void>;
  /** Told when a key is revoked: every instance forgets it and closes its live streams (a key counts as a session of its own id). */
  onRevoked: SessionEnded;
  /** Whether memory may answer now: false while the bus may miss a revocation made elsewhere. */
  trusted: () => boolean;
  ttlMs: number;
}) {
  const dal = createApiKeyDal(deps.db);
  const cache = new Map<string, { record: ApiKeyRecord; creator: User; at: number }>();
  const touched = new Map<string, number>();
  let generation = 0;
  const MAX_ENTRIES = 10_000;

  function forget(match: (entry: { record: ApiKeyRecord; creator: User }) => boolean) {
    generation += 1;
    for (const [hash, entry] of cache) if (match(entry)) cache.delete(hash);
  }

  async function load(hash: string): Promise<{ record: ApiKeyRecord; creator: User } | undefined> {
    const now = deps.now().getTime();
    const cached = deps.trusted() ? cache.get(hash) : undefined;
    if (cached && now - cached.at >= 0 && now - cached.at < deps.ttlMs) return cached;
    const started = generation;
    const record = await dal.byHash(hash);
    const creator = record && (await deps.users.getById(record.createdBy));
    if (!record || !creator || creator.organization.id !== record.organizationId) {
      cache.delete(hash);
      return undefined;
    }
    if (started === generation && record.revokedAt === null) {
      cache.delete(hash);
      cache.set(hash, { record, creator, at: now });
      if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    }
    return { record, creator };
  }

  return {
    async list(organizationId: string): Promise<ApiKey[]> {
      return (await dal.list(organizationId)).map(toApiKey);
    },

    /** A new key of the organization; its secret is in this answer only. */
    async create(by: User, input: CreateApiKeyRequest): Promise<ApiKey & { key: string }> {
      const now = deps.now();
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= now.getTime()) {
        throw badRequest('L’échéance de la clé est passée : choisissez une date à venir.');
      }
      const scope = input.scope ?? null;
      await deps.validateScope(by.organization.id, scope);
      const key = `vk_${randomBytes(32).toString('base64url')}`;
      const record = await dal.insert({
        organizationId: by.organization.id,
        name: input.name,
        role: input.role,
        scope,
        prefix: key.slice(0, PREFIX_LENGTH),
        keyHash: hashOf(key),
        createdBy: by.id,
        createdAt: now,
        expiresAt,
      });
      return { ...toApiKey(record), key };
    },

    /** Revokes a key: refused from the next request on, on every instance. */
    async revoke(organizationId: string, id: string): Promise<ApiKey> {
      const record = await dal.revoke(organizationId, id, deps.now());
      if (!record) throw notFound(API_KEY_NOT_FOUND);
      forget((entry) => entry.record.id === id);
      await deps.onRevoked({ organizationId, userId: record.createdBy, sessionId: record.id });
      return toApiKey(record);
    },

    /** The caller of a request made with this key, or undefined when the key is unknown, revoked or expired. */
    async authenticate(key: string): Promise<ApiKeyCaller | undefined> {
      if (!KEY_PATTERN.test(key)) return undefined;
      const found = await load(hashOf(key));
      if (!found) return undefined;
      const { record, creator } = found;
      const now = deps.now();
      if (record.revokedAt !== null || (record.expiresAt && record.expiresAt.getTime() <= now.getTime())) return undefined;
      // Its last use, to the minute: never a write per request.
      const last = touched.get(record.id) ?? record.lastUsedAt?.getTime() ?? -Infinity;
      if (now.getTime() - last >= TOUCH_EVERY_MS || now.getTime() < last) {
        touched.set(record.id, now.getTime());
        if (touched.size > MAX_ENTRIES) touched.delete(touched.keys().next().value as string);
        await dal.touch(record.id, now, new Date(now.getTime() - TOUCH_EVERY_MS));
      }
      return {
        // The key acts with its own role and scope. Where a record keeps a person's id (a task
        // completed, a check taken), it is the admin who created the key; the name kept beside it,
        // and the audit trail, name the key.
        user: {
          id: creator.id,
          name: apiKeyActorName(record.name),
          email: creator.email,
          role: record.role,
          organization: creator.organization,
          scope: record.scope ?? null,
          totpEnabled: false,
          totpSetupRequired: false,
        },
        apiKey: { id: record.id, name: record.name, prefix: record.prefix },
      };
    },

    /** The scope of a key in force (an open live stream reads it again): undefined once revoked or expired. */
    async scopeOf(organizationId: string, id: string): Promise<MemberScope | null | undefined> {
      const record = await dal.byId(organizationId, id);
      if (!record || record.revokedAt !== null || (record.expiresAt && record.expiresAt.getTime() <= deps.now().getTime())) {
        return undefined;
      }
      return record.scope ?? null;
    },

    /** A key revoked (here or on another instance). */
    forgetKey: (id: string) => forget((entry) => entry.record.id === id),
    /** An account changed: the keys it created read it again (or, without one, every key of the organization). */
    forgetCreator: (organizationId: string, userId: string | null) =>
      forget((entry) => (userId ? entry.record.createdBy === userId : entry.record.organizationId === organizationId)),
    /** The bus was deaf for a while: what it missed may have revoked any key. */
    clear: () => forget(() => true),
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
