/** Query keys of the on-call feature, per signed-in user so that accounts never share a cache. */
export const onCallKeys = {
  all: (owner: string) => ['on-call', owner] as const,
  /** The person's own phone, quiet hours and the server's channels. */
  phone: (owner: string) => ['on-call', owner, 'phone'] as const,
  sites: (owner: string) => ['on-call', owner, 'site'] as const,
  site: (owner: string, siteId: string) => ['on-call', owner, 'site', siteId] as const,
  /** The organization's members, offered in a rota. */
  members: (owner: string) => ['on-call', owner, 'members'] as const,
};
