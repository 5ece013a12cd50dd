import type { Emitter, Sensor } from '@vigie/contract';
import { NEW_SENSOR, NEW_TRANSMITTER, SENSOR_DESCRIPTION, TRANSMITTER_DESCRIPTION, UNNAMED } from '@/lib/fallback-text';

export type DeviceKind = 'emitter' | 'sensor';
export type Device = Emitter | Sensor;

type DeviceKindConfig = {
  /** Field of the list response, and of the single-item response. */
  listField: 'emitters' | 'sensors';
  itemField: 'emitter' | 'sensor';
  /** Name given to a device created from the dashboard. */
  newName: string;
  /** Card description. */
  description: string;
  fallbacks: { list: string; one: string; create: string; update: string };
  labels: {
    add: string;
    addFirst: string;
    emptyTitle: string;
    emptyText: string;
    loading: string;
  };
};

export const DEVICE_KINDS: Record<DeviceKind, DeviceKindConfig> = {
  emitter: {
    listField: 'emitters',
    itemField: 'emitter',
    newName: NEW_TRANSMITTER,
    description: TRANSMITTER_DESCRIPTION,
    fallbacks: {
      list: 'Error loading transmitters',
      one: 'Error loading transmitter',
      create: 'Error creating transmitter',
      update: 'Error updating transmitter',
    },
    labels: {
      add: 'Ajouter un émetteur',
      addFirst: 'Ajouter votre premier émetteur',
      emptyTitle: 'Aucun émetteur pour l’instant',
      emptyText: 'Les émetteurs relaient les mesures de vos capteurs depuis chaque boutique. Ajoutez le premier pour commencer.',
      loading: 'Chargement des émetteurs…',
    },
  },
  sensor: {
    listField: 'sensors',
    itemField: 'sensor',
    newName: NEW_SENSOR,
    description: SENSOR_DESCRIPTION,
    fallbacks: {
      list: 'Error loading sensors',
      one: 'Error loading sensor',
      create: 'Error creating sensor',
      update: 'Error updating sensor',
    },
    labels: {
      add: 'Ajouter un capteur',
      addFirst: 'Ajouter votre premier capteur',
      emptyTitle: 'Aucun capteur pour l’instant',
      emptyText: 'Température, fréquentation, ouverture des portes\u202F: ajoutez un capteur pour suivre ce qui se passe en magasin.',
      loading: 'Chargement des capteurs…',
    },
  },
};

export const deviceKeys = {
  all: ['devices'] as const,
  list: (kind: DeviceKind, owner: string) => ['devices', kind, owner, 'list'] as const,
  detail: (kind: DeviceKind, owner: string, id: string) => ['devices', kind, owner, 'detail', id] as const,
  trash: (owner: string) => ['devices', 'trash', owner] as const,
};

/** The name to show: 'Unnamed' when the device has none. */
export function deviceDisplayName(device: Pick<Device, 'name'>): string {
  return typeof device.name === 'string' && device.name.trim() ? device.name : UNNAMED;
}
