import type { Role } from '@vigie/contract';
import { useAuth } from './auth';

/**
 * What the signed-in person may do, mirroring the server's role matrix (docs/api.md, Rôles). The server
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

const NONE: Permissions = { role: null, manage: false, manageMembers: false, acknowledgeAlerts: false, readAudit: false };

/** The permissions of a role; an unknown or missing role may do nothing but read. */
export function permissionsFor(role: Role | null | undefined): Permissions {
  switch (role) {
    case 'admin':
      return { role, manage: true, manageMembers: true, acknowledgeAlerts: true, readAudit: true };
    case 'manager':
      return { role, manage: true, manageMembers: false, acknowledgeAlerts: true, readAudit: false };
    case 'viewer':
      return { role, manage: false, manageMembers: false, acknowledgeAlerts: true, readAudit: false };
    default:
      return NONE;
  }
}

/** The current user's permissions. */
export function usePermissions(): Permissions {
  return permissionsFor(useAuth().user?.role);
}

/** The French name of a role, as the team screen and the invitation show it. */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrateur',
  manager: 'Responsable',
  viewer: 'Lecteur',
};

/** The roles in the order a choice lists them, from the most to the least powerful. */
export const ROLE_OPTIONS = Object.keys(ROLE_LABELS) as Role[];
