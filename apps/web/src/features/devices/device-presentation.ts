import { Radar, Radio, type LucideIcon } from 'lucide-react';
import type { DeviceKind } from './device-kinds';

type DevicePresentation = {
  icon: LucideIcon;
  /** Gradient and text colour of the kind's badge. */
  tone: string;
  /** French words, capitalised for a label (« Capteur supprimé », the tab « Capteurs »). */
  singular: string;
  plural: string;
};

/** How each kind of device looks and is named in the interface. */
export const DEVICE_PRESENTATION: Record<DeviceKind, DevicePresentation> = {
  emitter: {
    icon: Radio,
    tone: 'from-cyan-400/25 to-sky-500/10 text-cyan-200',
    singular: 'Émetteur',
    plural: 'Émetteurs',
  },
  sensor: {
    icon: Radar,
    tone: 'from-violet-400/25 to-fuchsia-500/10 text-violet-200',
    singular: 'Capteur',
    plural: 'Capteurs',
  },
};
