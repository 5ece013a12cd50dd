/** Query keys of the reports feature, per signed-in user so that accounts never share a cache. */
export const reportKeys = {
  all: (owner: string) => ['reports', owner] as const,
  lists: (owner: string) => ['reports', owner, 'list'] as const,
  /** `siteId` null: every site of the organization. */
  list: (owner: string, siteId: string | null) => ['reports', owner, 'list', siteId ?? 'all'] as const,
};
