/** Query keys of the food-safety plan's tasks and processes, per signed-in user so that accounts never share a cache. */
export const taskKeys = {
  all: (owner: string) => ['tasks', owner] as const,
  /** The tasks due in [from, to). */
  list: (owner: string, from: string, to: string) => ['tasks', owner, 'list', from, to] as const,
  processes: (owner: string) => ['tasks', owner, 'processes'] as const,
};
