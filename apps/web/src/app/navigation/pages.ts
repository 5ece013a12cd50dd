import { cameFrom } from '@/lib/came-from';

/** The signed-in pages, by what the navigation calls them. */
export type PageKey =
  | 'dashboard'
  | 'alerts'
  | 'alert'
  | 'reports'
  | 'sites'
  | 'network'
  | 'tasks'
  | 'plan'
  | 'checks'
  | 'install'
  | 'team'
  | 'journal'
  | 'trash'
  | 'account'
  | 'installation'
  | 'lorawan'
  | 'sensor'
  | 'emitter';

type Page = {
  /** The page's address; a page about one thing (an alert, a device) has a pattern instead. */
  path?: string;
  pattern?: RegExp;
  /** Its name in the menus and the breadcrumb. */
  label: string;
  /** Where the breadcrumb leads from it when the person's own way there is not known. */
  parent?: PageKey;
  /** The page shows its own way back, and the frame none. */
  ownBackLink?: true;
};

export const PAGES: Record<PageKey, Page> = {
  dashboard: { path: '/dashboard', label: 'Tableau de bord' },
  alerts: { path: '/dashboard/alertes', label: 'Alertes', parent: 'dashboard' },
  // Opened from a notification, an e-mail or a sensor's page, an alert still belongs to the list.
  alert: { pattern: /^\/dashboard\/alertes\/[^/]+$/, label: 'Alerte', parent: 'alerts', ownBackLink: true },
  reports: { path: '/dashboard/rapports', label: 'Rapports', parent: 'dashboard' },
  sites: { path: '/dashboard/sites', label: 'Magasins', parent: 'dashboard' },
  network: { path: '/dashboard/reseau', label: 'Réseau', parent: 'dashboard' },
  tasks: { path: '/dashboard/taches', label: 'Tâches du jour', parent: 'dashboard' },
  plan: { path: '/dashboard/plan', label: 'Plan de maîtrise sanitaire', parent: 'dashboard' },
  checks: { path: '/dashboard/controles', label: 'Contrôles', parent: 'dashboard' },
  install: { path: '/dashboard/installer', label: 'Installer un appareil', parent: 'dashboard' },
  team: { path: '/dashboard/equipe', label: 'Équipe', parent: 'dashboard' },
  journal: { path: '/dashboard/journal', label: 'Journal', parent: 'dashboard' },
  trash: { path: '/dashboard/corbeille', label: 'Corbeille', parent: 'dashboard' },
  account: { path: '/dashboard/compte', label: 'Mon compte', parent: 'dashboard' },
  installation: { path: '/dashboard/installation', label: 'Installation', parent: 'dashboard' },
  lorawan: { path: '/dashboard/lorawan', label: 'Capteurs LoRaWAN', parent: 'dashboard' },
  // A device is named by its page's own heading: the breadcrumb says what kind of page it is.
  sensor: { pattern: /^\/dashboard\/capteurs\/[^/]+$/, label: 'Capteur', parent: 'dashboard' },
  emitter: { pattern: /^\/dashboard\/emetteurs\/[^/]+$/, label: 'Émetteur', parent: 'dashboard' },
};

/** A path without its query, its fragment and a trailing slash: `/dashboard/?site=1` is `/dashboard`. */
export function normalizePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  return bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
}

/** The page at `path`, or null for an address the navigation does not know. */
export function pageAt(path: string): PageKey | null {
  const bare = normalizePath(path);
  for (const [key, page] of Object.entries(PAGES) as [PageKey, Page][]) {
    if (page.path === bare || page.pattern?.test(bare)) return key;
  }
  return null;
}

export type Crumb = { label: string; path: string | null };

/** A page and the pages above it, up to the dashboard, as links (a page about one thing has no address of its own here). */
function withAncestors(key: PageKey): Crumb[] {
  const trail: Crumb[] = [];
  const seen = new Set<PageKey>();
  for (let current: PageKey | undefined = key; current && !seen.has(current); current = PAGES[current].parent) {
    seen.add(current);
    trail.unshift({ label: PAGES[current].label, path: PAGES[current].path ?? null });
  }
  return trail;
}

/**
 * The breadcrumb of the page at `pathname`, the current page last (its `path` is null); null where
 * the frame shows none (the dashboard, a page with its own way back, an unknown address). The parent
 * is the page the person came from when the link said so (`state.from`), with the pages above it,
 * else the page's usual parent.
 */
export function breadcrumbTrail(pathname: string, state: unknown): Crumb[] | null {
  const key = pageAt(pathname);
  if (!key || key === 'dashboard' || PAGES[key].ownBackLink) return null;
  const current: Crumb = { label: PAGES[key].label, path: null };
  const from = cameFrom(state);
  const fromKey = from ? pageAt(from.path) : null;
  // A link from the page itself (or from an address the app no longer has) says nothing of the way here.
  if (from && fromKey && fromKey !== key) {
    const above = PAGES[fromKey].parent;
    return [...(above ? withAncestors(above) : []), { label: from.label, path: from.path }, current];
  }
  const parent = PAGES[key].parent;
  return [...(parent ? withAncestors(parent) : []), current];
}
