import { endpoints } from '@vigie/contract/routes';
import {
  Bell,
  CircleUser,
  ClipboardCheck,
  ClipboardList,
  FileCheck2,
  LayoutDashboard,
  Network,
  PackagePlus,
  PlugZap,
  RadioTower,
  ScrollText,
  Store,
  Thermometer,
  Trash2,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { useAuth } from '@/lib/auth';
import { useCan, usePermissions } from '@/lib/permissions';
import { normalizePath, PAGES, type PageKey } from './pages';

/** What the signed-in person may open, as far as the menus are concerned. */
export type NavAccess = {
  /** Installing a device: admins and managers. */
  manage: boolean;
  /** « Équipe »: admins. */
  manageMembers: boolean;
  /** « Journal »: admins. */
  readAudit: boolean;
  /** « Rapports »: whoever may read the reports. */
  readReports: boolean;
  /** « Plan de maîtrise sanitaire »: whoever may read the plan's templates (admins and managers). */
  readPlan: boolean;
  /**
   * « Intégrations » (the installation key, its commands and MQTT settings; the LoRaWAN network
   * servers): admins and managers who see the whole organization, the only ones the server lets
   * read the key and manage the integrations.
   */
  integrations: boolean;
};

export type NavItem = { key: PageKey; label: string; path: string; icon: LucideIcon };

export type NavSections = {
  /** The four pages used every day: the phone's bar shows them, the side menu lists them first. */
  primary: NavItem[];
  /** The other pages, under « Plus » on a phone. */
  secondary: NavItem[];
  /** The technical pages, in their own group; empty for whoever may not use them. */
  integrations: NavItem[];
};

const ICONS: Record<PageKey, LucideIcon | null> = {
  dashboard: LayoutDashboard,
  alerts: Bell,
  reports: FileCheck2,
  sites: Store,
  network: Network,
  tasks: ClipboardCheck,
  plan: ClipboardList,
  checks: Thermometer,
  install: PackagePlus,
  team: Users,
  journal: ScrollText,
  trash: Trash2,
  account: CircleUser,
  installation: PlugZap,
  lorawan: RadioTower,
  alert: null,
  sensor: null,
  emitter: null,
};

function item(key: PageKey): NavItem {
  const { label, path } = PAGES[key];
  const icon = ICONS[key];
  if (!path || !icon) throw new Error(`${key} is not a page of the menus.`);
  return { key, label, path, icon };
}

/** The entries of the menus a person with `access` sees, in their order. */
export function navSections(access: NavAccess): NavSections {
  const shown = (entries: [PageKey, boolean][]) => entries.filter(([, visible]) => visible).map(([key]) => item(key));
  return {
    primary: shown([
      ['dashboard', true],
      ['alerts', true],
      ['reports', access.readReports],
      ['sites', true],
    ]),
    secondary: shown([
      ['tasks', true],
      ['plan', access.readPlan],
      ['network', true],
      ['checks', true],
      ['install', access.manage],
      ['team', access.manageMembers],
      ['journal', access.readAudit],
      ['trash', true],
      ['account', true],
    ]),
    integrations: access.integrations ? [item('installation'), item('lorawan')] : [],
  };
}

/** The signed-in person's access to the menus' pages, from their role (the endpoint catalogue's matrix) and their scope. */
export function useNavAccess(): NavAccess {
  const { user } = useAuth();
  const { manage, manageMembers, readAudit } = usePermissions();
  const can = useCan();
  const wholeOrganization = !user?.scope;
  return {
    manage,
    manageMembers,
    readAudit,
    readReports: can(endpoints.reports.list),
    readPlan: can(endpoints.taskTemplates.list),
    integrations: wholeOrganization && can(endpoints.installationKey.get) && can(endpoints.integrations.create),
  };
}

/**
 * How an entry relates to the page shown: `page` when it is that page, `true` when the page is one
 * of its own (an alert under « Alertes »), else false. The dashboard owns no page under it here.
 */
export function currentness(item: NavItem, pathname: string): 'page' | 'true' | false {
  const here = normalizePath(pathname);
  if (here === item.path) return 'page';
  if (item.key !== 'dashboard' && here.startsWith(`${item.path}/`)) return 'true';
  return false;
}
