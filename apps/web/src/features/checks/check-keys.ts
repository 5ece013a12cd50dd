/** Query keys of the manual checks feature, per signed-in user so that accounts never share a cache. */
export const checkKeys = {
  all: (owner: string) => ['checks', owner] as const,
  lists: (owner: string) => ['checks', owner, 'list'] as const,
  /** `siteId` null: every site one sees. */
  list: (owner: string, siteId: string | null) => ['checks', owner, 'list', siteId ?? 'all'] as const,
};
