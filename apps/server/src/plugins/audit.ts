import type { AuditAction } from '@vigie/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditDetails, AuditService, AuditSubject } from '../modules/audit/audit-service.ts';
import { apiKeyActorName } from '../modules/members/api-key-service.ts';
import { currentUser } from './authenticate.ts';

/** Files what the signed-in person of this request just did in the audit trail. */
export type RecordAudit = (action: AuditAction, subject?: AuditSubject | null, details?: AuditDetails | null) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Files what the signed-in person of this request just did in the audit trail (after the change is made). */
    audit: RecordAudit;
  }
}

/**
 * `request.audit(...)` on every request: the author is the signed-in user, or the API key the
 * request was made with (by its id, its name and its prefix in place of an address), the address the client's.
 */
export function registerAudit(app: FastifyInstance, audit: AuditService): void {
  app.decorateRequest('audit', function (this: FastifyRequest, action, subject, details) {
    const user = currentUser(this);
    const key = this.apiKey;
    const author = key ? { id: key.id, name: apiKeyActorName(key.name), email: key.prefix, organization: user.organization } : user;
    return audit.recordBy(author, this.ip)(action, subject, details);
  } satisfies RecordAudit);
}

/** What changed between two values of the same fields, as `{field: {from, to}}`; unchanged fields are left out. */
export function changes<T extends Record<string, unknown>>(before: T, after: T, fields: readonly (keyof T & string)[]): AuditDetails {
  const changed: AuditDetails = {};
  for (const field of fields) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field]))
      changed[field] = { from: before[field] ?? null, to: after[field] ?? null };
  }
  return changed;
}
