/** Query keys of the reports feature, per signed-in user so that accounts never share a cache. */
export const reportKeys = {
  all: (owner: string) => ['reports', owner] as const,
  lists: (owner: string) => ['reports', owner, 'list'] as const,
  /** `siteId` null: every site of the organization. */
  list: (owner: string, siteId: string | null) => ['reports', owner, 'list', siteId ?? 'all'] as const,
};

/** The roles allowed to generate and sign (docs/api.md, Rôles); the server enforces it, the screen only follows. */
export function canManageReports(role: string | undefined): boolean {
  return role !== 'viewer';
}
