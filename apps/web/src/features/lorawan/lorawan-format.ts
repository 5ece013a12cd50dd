import type { Codec, IntegrationType, PendingLorawanDevice } from '@vigie/contract';
import type { InstallUseKey } from '@vigie/contract/presets';
import { formatMeasure, formatNumber, measureLabel, measureUnit } from '@/lib/measure-format';

const NBSP = '\u00A0';
const NNBSP = '\u202F';

/** The network servers' names as their makers write them. */
export const INTEGRATION_TYPE_LABELS: Record<IntegrationType, string> = {
  tts: 'The Things Stack',
  chirpstack: 'ChirpStack',
  thingpark: 'Actility ThingPark',
  liveobjects: 'Orange Live Objects',
  loriot: 'Loriot',
  helium: 'Helium',
};

/** The codec that keeps the network server's own decoding. */
export const NETWORK_CODEC = 'network';

/**
 * A DevEUI as printed on a sensor's label: upper case, in groups of four (« 24E1 2413 6B50 2217 »).
 * Anything that is not 16 hexadecimal digits is shown as it came.
 */
export function formatDevEui(devEui: string): string {
  const digits = devEui.replace(/[\s:-]/g, '');
  if (!/^[0-9a-fA-F]{16}$/.test(digits)) return devEui;
  return (digits.toUpperCase().match(/.{4}/g) ?? []).join(' ');
}

/** A codec pasted by the organization (`custom:<uuid>`), not built into Vigie. */
export function isPastedCodec(codec: Pick<Codec, 'id'>): boolean {
  return codec.id.startsWith('custom:');
}

/**
 * « Milesight EM300-TH »; the network server's own decoding by its description alone; a pasted
 * codec by the name it was saved with (« EM300 maison (décodeur de l’organisation) »).
 */
export function codecLabel(codec: Pick<Codec, 'id' | 'vendor' | 'model'>): string {
  if (codec.id === NETWORK_CODEC) return codec.model;
  if (isPastedCodec(codec)) return `${codec.model} (décodeur de l’organisation)`;
  return `${codec.vendor} ${codec.model}`;
}

/**
 * A value a pasted codec decoded, as exact as it came, with its unit when the measure is known
 * (« 30,8 °C », « 50,5 % », « Ouverte (1) », « 1,234 »): its author checks it against the frame.
 */
export function decodedValueText(key: string, value: number): string {
  const number = formatNumber(value, 6);
  if (key === 'open' || key === 'door') return `${formatMeasure(key, value)} (${number})`;
  const unit = measureUnit(key);
  return unit ? `${number}${NNBSP}${unit}` : number;
}

/** « Température, humidité, batterie »: what a codec reads, in French. */
export function codecMeasuresText(codec: Pick<Codec, 'measures'>): string {
  const labels = codec.measures.map((key) => measureLabel(key).toLocaleLowerCase('fr'));
  const text = labels.join(', ');
  return text ? text.charAt(0).toLocaleUpperCase('fr') + text.slice(1) : '';
}

/** What a detected device is, as far as anyone knows: its suggested codec, or the network server's brand and model ids. */
export function pendingModelText(device: Pick<PendingLorawanDevice, 'brand' | 'model'>, suggested: Codec | undefined): string | null {
  if (suggested && suggested.id !== NETWORK_CODEC) return codecLabel(suggested);
  const known = [device.brand, device.model].filter((part): part is string => Boolean(part?.trim()));
  return known.length > 0 ? known.join(' ') : null;
}

/** The name an adopted device gets unless changed: its model (or « Capteur LoRaWAN ») and the end of its DevEUI. */
export function defaultSensorName(devEui: string, model: string | null | undefined): string {
  const digits = devEui.replace(/[\s:-]/g, '').toUpperCase();
  return `${model?.trim() || 'Capteur LoRaWAN'} ${digits.slice(-6)}`;
}

/** « Vu 1 fois », « Vu 12 fois ». */
export function seenText(uplinks: number): string {
  return `Vu ${formatNumber(uplinks, 0)} fois`;
}

/** The use a codec's measures suggest: a door contact watches a door, a counter its silence, the rest the cold. */
export function suggestedUse(codec: Pick<Codec, 'measures'> | undefined): InstallUseKey {
  const measures = codec?.measures ?? [];
  if (measures.includes('open') || measures.includes('door')) return 'door';
  if (measures.includes('visitors')) return 'footfall';
  if (measures.includes('temperature')) return 'chilled_very_perishable';
  return 'none';
}

/** « −87 dBm », « 9,5 dB »: the radio signal, a no-break space before its unit. */
export function formatRssi(rssi: number): string {
  return `${formatNumber(rssi, 0)}${NBSP}dBm`;
}

export function formatSnr(snr: number): string {
  return `${formatNumber(snr, 1)}${NBSP}dB`;
}

/** The steps to paste in the network server, for an integration of each type (docs/protocole-appareils.md, Capteurs LoRaWAN). */
const INTEGRATION_STEPS: Record<IntegrationType, string[]> = {
  tts: [
    `Dans votre application The Things Stack, ouvrez Integrations → Webhooks → Add webhook → Custom webhook.`,
    `Webhook format${NNBSP}: JSON. Base URL${NNBSP}: l’adresse ci-dessus. Laissez les chemins vides.`,
    `Additional headers${NNBSP}: Authorization = Bearer suivi du secret (copiez l’en-tête ci-dessus).`,
    `Cochez Uplink message, puis enregistrez (Add webhook).`,
  ],
  chirpstack: [
    `Dans votre application ChirpStack, ouvrez Integrations → HTTP → Add.`,
    `Payload encoding${NNBSP}: JSON. Event endpoint URL${NNBSP}: l’adresse ci-dessus.`,
    `Headers${NNBSP}: Authorization = Bearer suivi du secret (copiez l’en-tête ci-dessus).`,
    `Enregistrez (Submit).`,
  ],
  thingpark: [
    `Dans ThingPark, créez un serveur d’application de type HTTP (Application servers → Create).`,
    `Content type${NNBSP}: JSON (pas XML). Destination${NNBSP}: l’adresse ci-dessus.`,
    `Custom HTTP headers${NNBSP}: Authorization = Bearer suivi du secret (copiez l’en-tête ci-dessus).`,
    `Ajoutez ce serveur à un AS routing profile, puis donnez ce profil à vos capteurs.`,
  ],
  liveobjects: [
    `Dans Live Objects, créez une action HTTP push${NNBSP}: URL${NNBSP}: l’adresse ci-dessus, méthode POST.`,
    `En-têtes HTTP${NNBSP}: Authorization = Bearer suivi du secret (copiez l’en-tête ci-dessus).`,
    `Déclenchez-la par une règle de routage sur les messages de données de vos appareils LoRa.`,
    `Gardez le message tel quel (pas de modèle de contenu)${NNBSP}: la trame en hexadécimal dans value.payload.`,
  ],
  loriot: [
    `Dans votre application Loriot, ouvrez Output → Add new output → HTTP Push.`,
    `Target URL${NNBSP}: l’adresse ci-dessus.`,
    `Custom Authorization header value${NNBSP}: Bearer suivi du secret (copiez l’en-tête ci-dessus).`,
    `Enregistrez la sortie (Confirm)${NNBSP}: les trames arrivent en rx ou gw.`,
  ],
  helium: [
    `Dans la console Helium, ouvrez Integrations → Add New Integration → HTTP.`,
    `Method${NNBSP}: POST. Endpoint URL${NNBSP}: l’adresse ci-dessus.`,
    `HTTP headers${NNBSP}: Authorization = Bearer suivi du secret (copiez l’en-tête ci-dessus).`,
    `Dans Flows, reliez vos capteurs (ou leur étiquette) à cette intégration.`,
  ],
};

/** The steps to paste in the network server, for an integration of `type`. */
export function integrationSteps(type: IntegrationType): string[] {
  return INTEGRATION_STEPS[type];
}
