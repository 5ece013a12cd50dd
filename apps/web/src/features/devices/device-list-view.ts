import { type Device } from './device-kinds';
import { deviceStatusAt, LOW_BATTERY_PERCENT } from './device-status';

export type StatusFilter = 'all' | 'alert' | 'offline' | 'low-battery' | 'online';
export type DeviceOrder = 'added' | 'problems' | 'name';

export interface ListView {
  /** Part of the name or serial; accents and case do not matter. */
  query: string;
  status: StatusFilter;
  order: DeviceOrder;
}

export const DEFAULT_VIEW: ListView = { query: '', status: 'all', order: 'added' };

export const STATUS_FILTER_LABELS: Record<StatusFilter, string> = {
  all: 'Tous les états',
  alert: 'En alerte',
  offline: 'Hors ligne',
  'low-battery': 'Pile faible',
  online: 'En ligne',
};

export const ORDER_LABELS: Record<DeviceOrder, string> = {
  added: 'Ordre d’ajout',
  problems: 'Problèmes d’abord',
  name: 'Nom',
};

/** Lower case without accents: « Vitrine crèmerie » is found by « creme ». */
export const searchable = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('fr');

const lowBattery = (device: Device) => typeof device.battery === 'number' && device.battery <= LOW_BATTERY_PERCENT;

/**
 * How urgent a device is, lowest first: a critical alert, a warning, offline, a low battery,
 * then the rest (« problèmes d’abord »).
 */
export function problemRank(device: Device, alert: 'critical' | 'warning' | null, now: number): number {
  if (alert === 'critical') return 0;
  if (alert === 'warning') return 1;
  if (deviceStatusAt(device, now) === 'offline') return 2;
  if (lowBattery(device)) return 3;
  return 4;
}

const collator = new Intl.Collator('fr', { sensitivity: 'base', numeric: true });

/** The devices the view shows, in its order; the input list is not changed. */
export function applyView(
  devices: readonly Device[],
  view: ListView,
  context: { alertOf: (id: string) => 'critical' | 'warning' | null; now: number },
): Device[] {
  const query = searchable(view.query.trim());
  const matches = (device: Device): boolean => {
    if (query && !searchable(`${device.name}\n${device.serial ?? ''}`).includes(query)) return false;
    switch (view.status) {
      case 'all':
        return true;
      case 'alert':
        return context.alertOf(device.id) !== null;
      case 'low-battery':
        return lowBattery(device);
      case 'offline':
      case 'online':
        return deviceStatusAt(device, context.now) === view.status;
    }
  };
  const shown = devices.filter(matches);
  if (view.order === 'name') return shown.sort((a, b) => collator.compare(a.name, b.name));
  if (view.order === 'problems') {
    const rank = new Map(shown.map((device) => [device.id, problemRank(device, context.alertOf(device.id), context.now)]));
    // Array.prototype.sort is stable: within a rank, the order of addition stays.
    return shown.sort((a, b) => (rank.get(a.id) ?? 4) - (rank.get(b.id) ?? 4));
  }
  return shown;
}
