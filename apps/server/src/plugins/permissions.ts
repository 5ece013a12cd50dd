import { ROLES, type Role } from '@vigie/contract';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { forbidden } from '../errors.ts';
import { TOTP_MESSAGES } from '../modules/auth/totp-service.ts';
import { currentUser } from './authenticate.ts';

/** Who may call a route, and what someone else is told (docs/api.md, Rôles). */
export interface Permission {
  readonly roles: readonly Role[];
  /** The French sentence of the 403; unused when every role is allowed. */
  readonly message: string;
  /**
   * Open to an admin who must still turn on two-factor authentication (their organization requires
   * it): their own account and signing out. Every other route answers 403 until then.
   */
  readonly duringTotpSetup?: true;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
/** `METHOD /full/url/:param`, as Fastify spells `routeOptions.url` (prefix included). */
export type RouteKey = `${Method} /api/${string}`;
export type PermissionTable = Readonly<Record<RouteKey, Permission>>;

const everyone: Permission = { roles: ROLES, message: '' };
const ownAccount: Permission = { roles: ROLES, message: '', duringTotpSetup: true };
const managers = (action: string): Permission => ({
  roles: ['admin', 'manager'],
  message: `Seuls un administrateur ou un responsable peuvent ${action}.`,
});
const admins = (action: string): Permission => ({ roles: ['admin'], message: `Seul un administrateur peut ${action}.` });

const devices = managers('gérer les appareils');
const sites = managers('gérer les sites');
const rules = managers("gérer les règles d'alerte");
const handleAlerts = managers('traiter une alerte ; votre rôle permet seulement d’en accuser réception');
const members = admins('gérer les membres');
const invitations = admins('gérer les invitations');
const auditTrail = admins('consulter le journal');

/**
 * Every authenticated route and the roles that may call it: `admin` everything, `manager` all
 * but members and invitations, `viewer` reads, acknowledges alerts, logs out and follows the
 * live stream. A route of the secured scope missing here stops the server at start.
 */
export const PERMISSIONS: PermissionTable = {
  'GET /api/user/me': ownAccount,
  'POST /api/auth/logout': ownAccount,
  'POST /api/auth/logout-all': ownAccount,
  'PUT /api/user/password': ownAccount,
  'POST /api/user/totp/setup': ownAccount,
  'POST /api/user/totp/enable': ownAccount,
  'POST /api/user/totp/disable': everyone,
  'GET /api/user/totp/recovery-codes': everyone,
  'POST /api/user/totp/recovery-codes': everyone,
  'GET /api/organization/security': everyone,
  'PUT /api/organization/security': admins('changer les règles de sécurité de l’organisation'),
  'GET /api/stream': everyone,
  'GET /api/audit': auditTrail,
  'GET /api/audit.csv': auditTrail,

  // Whoever holds the key can add devices to the organization: not for those who only read.
  'GET /api/organization/installation-key': managers("voir la clé d'installation"),
  'POST /api/organization/installation-key': managers("renouveler la clé d'installation"),
  'POST /api/devices/claim': managers('rattacher un appareil'),
  'GET /api/trash': everyone,

  'GET /api/emitter': everyone,
  'POST /api/emitter': devices,
  'GET /api/emitter/:id': everyone,
  'PUT /api/emitter/:id': devices,
  'DELETE /api/emitter/:id': devices,
  'POST /api/emitter/:id/restore': devices,
  'POST /api/emitter/:id/token': devices,
  'GET /api/emitter/:id/readings': everyone,
  'GET /api/emitter/:id/readings.csv': everyone,
  'GET /api/sensor': everyone,
  'POST /api/sensor': devices,
  'GET /api/sensor/:id': everyone,
  'PUT /api/sensor/:id': devices,
  'DELETE /api/sensor/:id': devices,
  'POST /api/sensor/:id/restore': devices,
  'POST /api/sensor/:id/token': devices,
  'GET /api/sensor/:id/readings': everyone,
  'GET /api/sensor/:id/readings.csv': everyone,
  'GET /api/sensor/:id/insights': everyone,
  'GET /api/insights/watch': everyone,

  'GET /api/sites': everyone,
  'POST /api/sites': sites,
  'GET /api/sites/:id': everyone,
  'PUT /api/sites/:id': sites,
  'DELETE /api/sites/:id': sites,

  'GET /api/alert-rules': everyone,
  'POST /api/alert-rules': rules,
  'GET /api/alert-rules/:id': everyone,
  'PUT /api/alert-rules/:id': rules,
  'DELETE /api/alert-rules/:id': rules,
  'GET /api/alerts': everyone,
  'GET /api/alerts/:id': everyone,
  'POST /api/alerts/:id/acknowledge': everyone,
  'POST /api/alerts/:id/actions': handleAlerts,
  'POST /api/alerts/:id/resolve': handleAlerts,
  'GET /api/notification-policy': everyone,
  'PUT /api/notification-policy': managers('modifier les notifications'),

  'GET /api/reports': everyone,
  'POST /api/reports': managers('établir un rapport'),
  'GET /api/reports/:id': everyone,
  'GET /api/reports/:id/pdf': everyone,
  'GET /api/reports/:id/csv': everyone,
  'POST /api/reports/:id/sign': managers('signer un rapport'),

  'GET /api/members': everyone,
  'PUT /api/members/:id': members,
  'DELETE /api/members/:id': members,
  'POST /api/members/:id/two-factor/reset': members,
  'GET /api/invitations': invitations,
  'POST /api/invitations': invitations,
  'POST /api/invitations/:id/resend': invitations,
  'DELETE /api/invitations/:id': invitations,
};

/** The key of a route in the table; a HEAD route (Fastify adds one to each GET) follows its GET. */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

/** The entries of the table whose route the app has registered (some may be ahead of their routes). */
export function registeredRoutes(
  app: Pick<FastifyInstance, 'hasRoute'>,
  table: PermissionTable = PERMISSIONS,
): { method: Method; url: string; permission: Permission }[] {
  return Object.entries(table).flatMap(([key, permission]) => {
    const [method, url] = key.split(' ') as [Method, string];
    return app.hasRoute({ method, url }) ? [{ method, url, permission }] : [];
  });
}

/**
 * Applies the table to every route later registered in `scope` (call it before registering
 * them): each gets an onRequest check that runs right after the scope's authentication, before
 * the body is read. A route without an entry throws here, so the app does not start.
 */
export function enforcePermissions(scope: FastifyInstance, table: PermissionTable = PERMISSIONS): void {
  const entries = new Map<string, Permission>(Object.entries(table));
  scope.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const permissions = methods.map((method) => {
      const key = routeKey(method, route.url);
      const permission = entries.get(key);
      if (!permission) {
        throw new Error(`La route authentifiée « ${key} » n'a pas d'entrée dans la table des permissions (plugins/permissions.ts).`);
      }
      return permission;
    });
    const [permission] = permissions;
    if (!permission || permissions.some((other) => other !== permission)) {
      throw new Error(`La route « ${route.url} » mêle des méthodes aux permissions différentes : déclarez-les séparément.`);
    }
    const everyRole = permission.roles.length === ROLES.length;
    if (everyRole && permission.duringTotpSetup) return;
    const check = async (request: FastifyRequest) => {
      const user = currentUser(request);
      if (user.totpSetupRequired && !permission.duringTotpSetup) throw forbidden(TOTP_MESSAGES.setupRequired);
      if (!everyRole && !permission.roles.includes(user.role)) throw forbidden(permission.message);
    };
    const existing = route.onRequest;
    route.onRequest = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : [check];
  });
}
