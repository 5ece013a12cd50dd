import { Radar, Radio, type LucideIcon } from 'lucide-react';
import type { DeviceKind } from './device-kinds';

type DevicePresentation = {
  icon: LucideIcon;
  /** Gradient and text colour of the kind's badge. */
  tone: string;
  /** French words, capitalised for a label and lower-case inside a sentence. */
  singular: string;
  plural: string;
  lower: string;
  /** « un émetteur », « ce capteur »… */
  article: string;
  demonstrative: string;
  /** Agreement of past participles: « supprimé », « restauré ». */
  feminine: boolean;
};

/** How each kind of device looks and is named in the interface. */
export const DEVICE_PRESENTATION: Record<DeviceKind, DevicePresentation> = {
  emitter: {
    icon: Radio,
    tone: 'from-cyan-400/25 to-sky-500/10 text-cyan-200',
    singular: 'Émetteur',
    plural: 'Émetteurs',
    lower: 'émetteur',
    article: 'un émetteur',
    demonstrative: 'cet émetteur',
    feminine: false,
  },
  sensor: {
    icon: Radar,
    tone: 'from-violet-400/25 to-fuchsia-500/10 text-violet-200',
    singular: 'Capteur',
    plural: 'Capteurs',
    lower: 'capteur',
    article: 'un capteur',
    demonstrative: 'ce capteur',
    feminine: false,
  },
};
