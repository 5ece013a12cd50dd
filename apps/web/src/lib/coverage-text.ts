const NNBSP = '\u202F';

/** A shop or a region, as the coverage of a template names it. */
export type Named = { id: string; name: string };

/** « Régions : Rhône-Alpes » — the names known here, the others counted. */
function namesPart(ids: readonly string[], known: readonly Named[], one: string, many: string): string | null {
  if (ids.length === 0) return null;
  const names = ids.flatMap((id) => known.find((item) => item.id === id)?.name ?? []);
  const others = ids.length - names.length;
  const text = [...names, ...(others > 0 ? [`${others} autre${others > 1 ? 's' : ''}`] : [])].join(', ');
  return `${ids.length > 1 ? many : one}${NNBSP}: ${text}`;
}

/**
 * Where a template (of alert rules, of tasks) applies: `everywhere` without sites nor regions, or
 * « Région : Rhône-Alpes · Magasins : Paris, Lille », the sites called by `site` ([one, many]).
 */
export function coverageText(
  template: { siteIds: readonly string[]; regionIds: readonly string[] },
  sites: readonly Named[],
  regions: readonly Named[],
  words: { everywhere: string; site: readonly [string, string] },
): string {
  if (template.siteIds.length === 0 && template.regionIds.length === 0) return words.everywhere;
  return [namesPart(template.regionIds, regions, 'Région', 'Régions'), namesPart(template.siteIds, sites, ...words.site)]
    .filter(Boolean)
    .join(' · ');
}
