/** Query keys of the team feature, per signed-in user so that accounts never share a cache. */
export const teamKeys = {
  all: (owner: string) => ['team', owner] as const,
  members: (owner: string) => ['team', owner, 'members'] as const,
  invitations: (owner: string) => ['team', owner, 'invitations'] as const,
  apiKeys: (owner: string) => ['team', owner, 'api-keys'] as const,
  /** What an invitation link offers, read before signing in: keyed by its token, not by a user. */
  preview: (token: string) => ['invitation-preview', token] as const,
};
