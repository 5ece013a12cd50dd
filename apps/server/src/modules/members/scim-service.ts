import { endpoints, pathOf, type Role, SCIM_SCHEMAS, type ScimListResponse, type ScimUser } from '@vigie/contract';
import { isUniqueViolation } from '../../db/connection-errors.ts';
import type { UserService } from '../auth/user-service.ts';
import type { MembersService } from './members-service.ts';
import { parseFilter, parsePage, parsePatch, parseUserResource, type ScimChange, ScimError } from './scim-input.ts';

/** A member as the auth module gives them to SCIM: address, name, role and dates. */
type ScimAccountRow = NonNullable<Awaited<ReturnType<UserService['scimAccounts']['get']>>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const SCIM_MESSAGES = {
  notFound: 'Utilisateur introuvable dans l’organisation.',
  alreadyMember: (email: string) => `${email} est déjà membre de l’organisation.`,
  elsewhere: (email: string) =>
    `${email} a déjà un compte dans une autre organisation Vigie : une adresse n’appartient qu’à une organisation, retirez-la de l’autre d’abord.`,
  inactive: 'Un utilisateur inactif n’est pas créé : Vigie ne garde que les membres actifs (active à true, ou sans active).',
  addressTaken: (email: string) => `L’adresse ${email} est déjà celle d’un autre compte Vigie.`,
} as const;

/** What a SCIM change did, for the audit trail: a member added, changed or removed. */
export type ScimOutcome =
  | { kind: 'created'; user: ScimUser; role: Role }
  | { kind: 'updated'; user: ScimUser; changed: string[] }
  | { kind: 'removed'; user: ScimUser }
  | { kind: 'unchanged'; user: ScimUser };

/**
 * The members of an organization as SCIM Users (docs/api.md, Provisionnement SCIM), for its identity
 * provider: every query is held to the token's organization. A member created here has no password
 * (they sign in by single sign-on) and the organization's default role; `active: false` and DELETE
 * remove the member as an admin would (members.remove: their sessions and live streams end at once
 * on every instance). A member of Vigie is active or is not: an inactive user is not kept.
 */
export function createScimService(deps: {
  accounts: UserService['scimAccounts'];
  members: Pick<MembersService, 'remove'>;
  /** A member's address or name changed: every instance reads the account again. */
  accountChanged: (organizationId: string, userId: string) => Promise<void>;
  /** The role of a person new to Vigie: `defaultRole` of the organization's single sign-on, viewer without it. */
  defaultRole: (organizationId: string) => Promise<Role>;
  publicUrl: string;
}) {
  const { accounts } = deps;

  function toUser(row: ScimAccountRow, active = true): ScimUser {
    return {
      schemas: [SCIM_SCHEMAS.user],
      id: row.id,
      userName: row.email,
      ...(row.name ? { name: { formatted: row.name }, displayName: row.name } : {}),
      emails: [{ value: row.email, type: 'work', primary: true }],
      active,
      meta: {
        resourceType: 'User',
        created: row.createdAt.toISOString(),
        lastModified: row.updatedAt.toISOString(),
        location: `${deps.publicUrl}${pathOf(endpoints.scim.getUser, { id: row.id })}`,
      },
    };
  }

  async function found(organizationId: string, id: string): Promise<ScimAccountRow> {
    const row = UUID.test(id) ? await accounts.get(organizationId, id) : undefined;
    if (!row) throw new ScimError(404, SCIM_MESSAGES.notFound);
    return row;
  }

  /** Refuses an address that another account has (here or in another organization). */
  async function addressFree(organizationId: string, email: string, exceptId?: string): Promise<void> {
    const owner = await accounts.organizationOf(email);
    if (owner === undefined) return;
    if (owner !== organizationId) throw new ScimError(409, SCIM_MESSAGES.elsewhere(email), 'uniqueness');
    const [same] = (await accounts.page(organizationId, { email, offset: 0, limit: 1 })).rows;
    if (same && same.id !== exceptId) throw new ScimError(409, SCIM_MESSAGES.alreadyMember(email), 'uniqueness');
  }

  /** Applies a change to a member: removes them (`active: false`), or sets their address and name. */
  async function apply(organizationId: string, row: ScimAccountRow, change: ScimChange): Promise<ScimOutcome> {
    if (change.active === false) {
      await deps.members.remove(organizationId, row.id);
      return { kind: 'removed', user: toUser(row, false) };
    }
    const set: { email?: string; name?: string | null } = {};
    if (change.email !== undefined && change.email.toLowerCase() !== row.email.toLowerCase()) {
      await addressFree(organizationId, change.email, row.id);
      set.email = change.email;
    } else if (change.email !== undefined && change.email !== row.email) set.email = change.email;
    if (change.name !== undefined && change.name !== row.name) set.name = change.name;
    if (Object.keys(set).length === 0) return { kind: 'unchanged', user: toUser(row) };
    let updated: ScimAccountRow | undefined;
    try {
      updated = await accounts.update(organizationId, row.id, set);
    } catch (error) {
      if (isUniqueViolation(error) && set.email) throw new ScimError(409, SCIM_MESSAGES.addressTaken(set.email), 'uniqueness');
      throw error;
    }
    if (!updated) throw new ScimError(404, SCIM_MESSAGES.notFound);
    await deps.accountChanged(organizationId, row.id);
    return { kind: 'updated', user: toUser(updated), changed: Object.keys(set) };
  }

  return {
    async list(
      organizationId: string,
      query: { filter?: string | undefined; startIndex?: string | undefined; count?: string | undefined },
    ): Promise<ScimListResponse> {
      const filter = parseFilter(query.filter);
      const { startIndex, count } = parsePage(query);
      let total: number;
      let rows: ScimAccountRow[];
      if (filter?.by === 'id') {
        const row = UUID.test(filter.value) ? await accounts.get(organizationId, filter.value) : undefined;
        total = row ? 1 : 0;
        rows = row && startIndex === 1 && count > 0 ? [row] : [];
      } else {
        ({ total, rows } = await accounts.page(organizationId, {
          ...(filter ? { email: filter.value } : {}),
          offset: startIndex - 1,
          limit: count,
        }));
      }
      return {
        schemas: [SCIM_SCHEMAS.listResponse],
        totalResults: total,
        startIndex,
        itemsPerPage: rows.length,
        Resources: rows.map((row) => toUser(row)),
      };
    },

    async get(organizationId: string, id: string): Promise<ScimUser> {
      return toUser(await found(organizationId, id));
    },

    /** A new member of the organization, without a password, with its default role. */
    async create(organizationId: string, body: unknown): Promise<Extract<ScimOutcome, { kind: 'created' }>> {
      const input = parseUserResource(body);
      if (!input.active) throw new ScimError(400, SCIM_MESSAGES.inactive, 'invalidValue');
      await addressFree(organizationId, input.email);
      const role = await deps.defaultRole(organizationId);
      try {
        const row = await accounts.create({ organizationId, email: input.email, name: input.name, role });
        return { kind: 'created', user: toUser(row), role };
      } catch (error) {
        // Created meanwhile by another request: the same answer as if it had come first.
        if (isUniqueViolation(error)) await addressFree(organizationId, input.email);
        throw error;
      }
    },

    /** PUT: the resource as a whole (its address, its name; `active: false` removes the member). */
    async replace(organizationId: string, id: string, body: unknown): Promise<ScimOutcome> {
      const input = parseUserResource(body);
      return apply(organizationId, await found(organizationId, id), input);
    },

    /** PATCH: its operations, read before anything is changed. */
    async patch(organizationId: string, id: string, body: unknown): Promise<ScimOutcome> {
      const change = parsePatch(body);
      return apply(organizationId, await found(organizationId, id), change);
    },

    /** DELETE: the member leaves the organization. */
    async remove(organizationId: string, id: string): Promise<ScimUser> {
      const row = await found(organizationId, id);
      await deps.members.remove(organizationId, row.id);
      return toUser(row, false);
    },
  };
}

export type ScimService = ReturnType<typeof createScimService>;
