import type { Access, Role } from '@vigie/contract';
import { can, ROLE_LABELS } from '@vigie/contract/values';
import { endpoints } from '@vigie/contract/routes';
import { useAuth } from './auth';

/**
 * What the signed-in person may do, as the endpoint catalogue's role matrix says. The server
 * decides; the screens only hide what would be refused, so that a viewer never meets a 403.
 */
export type Permissions = {
  role: Role | null;
  /** Devices, installation, sites, alert rules and handling, notification policy, reports: admins and managers. */
  manage: boolean;
  /** Members and invitations: admins only. */
  manageMembers: boolean;
  /** Acknowledging an alert: every member, viewers included. */
  acknowledgeAlerts: boolean;
  /** « Journal », the audit trail: admins only. */
  readAudit: boolean;
};

/** What « manage » covers, one endpoint per kind of thing managed. */
const MANAGED = [
  endpoints.emitter.create,
  endpoints.sensor.update,
  endpoints.installationKey.get,
  endpoints.devices.claim,
  endpoints.sites.create,
  endpoints.alertRules.create,
  endpoints.alerts.resolve,
  endpoints.notificationPolicy.update,
  endpoints.reports.create,
  endpoints.reports.sign,
];

/**
 * The permissions of a role, read from the endpoint catalogue (the matrix the server enforces);
 * an unknown or missing role may do nothing but read.
 */
export function permissionsFor(role: Role | null | undefined): Permissions {
  const known = role === 'admin' || role === 'manager' || role === 'viewer' ? role : null;
  return {
    role: known,
    manage: MANAGED.every((endpoint) => can(known, endpoint)),
    manageMembers: can(known, endpoints.members.update) && can(known, endpoints.invitations.create),
    acknowledgeAlerts: can(known, endpoints.alerts.acknowledge),
    readAudit: can(known, endpoints.audit.list),
  };
}

/**
 * Whether the current user may call `endpoint`; false while no one is signed in, and for a member
 * who sees some sites only, false where the catalogue asks for the whole organization.
 */
export function useCan(): (endpoint: { readonly access: Access }) => boolean {
  const user = useAuth().user;
  const scoped = Boolean(user?.scope);
  return (endpoint) => can(user?.role, endpoint, scoped);
}

/** The current user's permissions. */
export function usePermissions(): Permissions {
  return permissionsFor(useAuth().user?.role);
}

/** The French name of a role, as the team screen and the invitation show it (the contract's). */
export { ROLE_LABELS };

/** The roles in the order a choice lists them, from the most to the least powerful. */
export const ROLE_OPTIONS = Object.keys(ROLE_LABELS) as Role[];
