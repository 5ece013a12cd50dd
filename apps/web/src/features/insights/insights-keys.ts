/** Query keys of the predictive analysis, per signed-in user so that accounts never share a cache. */
export const insightsKeys = {
  all: (owner: string) => ['insights', owner] as const,
  sensor: (owner: string, sensorId: string, key: string) => ['insights', owner, 'sensor', sensorId, key] as const,
  watch: (owner: string, siteId: string | null) => ['insights', owner, 'watch', siteId] as const,
};

/** The server keeps its figures a minute: asking more often brings nothing new. */
export const INSIGHTS_REFRESH_MS = 60_000;
