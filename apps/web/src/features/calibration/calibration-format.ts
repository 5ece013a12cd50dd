import type { Calibration, CertificateType } from '@vigie/contract';
import { CERTIFICATE_MAX_BYTES, CERTIFICATE_TYPES } from '@vigie/contract/values';
import { formatNumber } from '@/lib/measure-format';

const NNBSP = '\u202F';
const DAY_MS = 86_400_000;
/** A verification falls due « bientôt » this long before its date. */
export const DUE_SOON_MS = 30 * DAY_MS;

/** An offset as a certificate gives it, signed, one decimal at least and two when it has them: « +0,4 °C », « −0,25 °C », « 0,0 °C ». */
export function formatOffset(offset: number): string {
  const digits = Math.abs(Math.round(offset * 100)) % 10 === 0 ? 1 : 2;
  return `${offset > 0 ? '+' : ''}${formatNumber(offset, digits, true)}${NNBSP}°C`;
}

const shortDates = new Map<string, Intl.DateTimeFormat>();

/** A day as the register reads it, in the shop's zone: « 20 nov. 2026 ». */
export function formatShortDate(ts: string | number, timeZone?: string): string {
  const key = timeZone ?? '';
  let format = shortDates.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };
    try {
      format = new Intl.DateTimeFormat('fr-FR', { ...options, timeZone });
    } catch {
      // An unknown zone name: the browser's own zone rather than no date at all.
      format = new Intl.DateTimeFormat('fr-FR', options);
    }
    shortDates.set(key, format);
  }
  return format.format(new Date(ts)).replace(/ /g, '\u00A0');
}

/** The verification in force: the latest by its date (the server sends them newest first). */
export function latestCalibration(calibrations: readonly Calibration[]): Calibration | null {
  let latest: Calibration | null = null;
  for (const calibration of calibrations)
    if (!latest || Date.parse(calibration.verifiedAt) > Date.parse(latest.verifiedAt)) latest = calibration;
  return latest;
}

export type DueState = 'overdue' | 'soon' | 'ok';

/** Whether the next verification is past, within 30 days, or further; null when none is set. */
export function dueState(nextDueAt: string | null, now: number): DueState | null {
  if (!nextDueAt) return null;
  const due = Date.parse(nextDueAt);
  if (Number.isNaN(due)) return null;
  if (due <= now) return 'overdue';
  return due - now <= DUE_SOON_MS ? 'soon' : 'ok';
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A `datetime-local` value for an instant, in the browser's zone: « 2026-11-20T09:30 ». */
export function localInputValue(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The `date` value a year after a `datetime-local` value (« 2027-11-20 »); empty when it is not a date. */
export function aYearAfter(localDateTime: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(localDateTime);
  if (!match) return '';
  const date = new Date(Number(match[1]) + 1, Number(match[2]) - 1, Number(match[3]));
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The instant a due day stands for: that day, at the verification's time of day, in the browser's
 * zone (« 2027-11-20 » after « 2026-11-20T09:30 » → 20 Nov. 2027, 9:30). NaN when not a day.
 */
export function dueInstant(day: string, verifiedAt: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return Number.NaN;
  const time = /T(\d{2}):(\d{2})/.exec(verifiedAt);
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(time?.[1] ?? 0), Number(time?.[2] ?? 0)).getTime();
}

const EXTENSIONS: Record<string, CertificateType> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

/** The certificate type of a chosen file, from its type or else its extension; null when not PDF, PNG or JPEG. */
export function certificateType(file: Pick<File, 'name' | 'type'>): CertificateType | null {
  if ((CERTIFICATE_TYPES as readonly string[]).includes(file.type)) return file.type as CertificateType;
  if (file.type && file.type !== 'application/octet-stream') return null;
  return EXTENSIONS[/\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? ''] ?? null;
}

/** Why a chosen file cannot be a certificate, in French; null when it can. */
export function certificateProblem(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  if (!certificateType(file)) return 'Le certificat doit être un PDF, une image PNG ou JPEG.';
  if (file.size > CERTIFICATE_MAX_BYTES) return `Le fichier pèse ${formatSize(file.size)}${NNBSP}: un certificat fait 2${NNBSP}Mo au plus.`;
  if (file.size === 0) return 'Le fichier choisi est vide.';
  return null;
}

/** « 1,2 Mo », « 340 ko ». */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${formatNumber(bytes / (1024 * 1024), 1)}${NNBSP}Mo`;
  return `${formatNumber(Math.max(1, Math.round(bytes / 1024)), 0)}${NNBSP}ko`;
}

/** A file name the contract takes (120 characters at most), its extension kept. */
export function certificateFileName(name: string): string {
  const trimmed = name.trim() || 'certificat';
  if (trimmed.length <= 120) return trimmed;
  const extension = /\.[a-z0-9]{1,5}$/i.exec(trimmed)?.[0] ?? '';
  return `${trimmed.slice(0, 120 - extension.length)}${extension}`;
}

/** A file's bytes in base64 (no `data:` prefix), as the API takes a certificate. */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('Le fichier n’a pas pu être lu.'));
    reader.readAsDataURL(file);
  });
}
