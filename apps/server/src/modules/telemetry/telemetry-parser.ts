import { MAX_READINGS_PER_MESSAGE, MAX_VALUES_PER_READING, measureNameProblem, measureValueProblem } from '@vigie/contract';
import { AppError, badRequest } from '../../errors.ts';

export interface ParsedReading {
  /** Serial or id of the sensor, when a transmitter sends for one of its sensors. */
  sensor: string | null;
  ts: Date;
  readingId: string | null;
  values: [key: string, value: number][];
}

export interface ParseOptions {
  now: number;
  /** Oldest accepted timestamp, in ms before now (the retention period). */
  maxAgeMs: number;
  /** Only a transmitter may send readings for a sensor. */
  allowSensorReference: boolean;
}

const RESERVED = new Set(['ts', 'id', 'sensor', 'values']);
const MAX_FUTURE_MS = 5 * 60 * 1000;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const formatter = new Intl.NumberFormat('fr-FR');
const UNSAFE_NUMERIC_ID =
  `identifiant « id » numérique invalide : un nombre entier de −${formatter.format(Number.MAX_SAFE_INTEGER)} à ` +
  `${formatter.format(Number.MAX_SAFE_INTEGER)} est attendu ; au-delà, ou avec des décimales, envoyez-le en chaîne`;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseTimestamp(raw: unknown, options: ParseOptions): Date {
  if (raw === undefined || raw === null) return new Date(options.now);
  let ms: number;
  if (typeof raw === 'number' && Number.isFinite(raw)) ms = raw;
  else if (typeof raw === 'string' && ISO_8601.test(raw)) ms = Date.parse(raw);
  else throw badRequest('horodatage « ts » invalide : un nombre de millisecondes depuis 1970 ou une date ISO 8601 est attendu');
  if (!Number.isFinite(ms)) throw badRequest('horodatage « ts » invalide');
  if (ms > options.now + MAX_FUTURE_MS) throw badRequest('horodatage « ts » dans le futur : vérifiez l’horloge de l’appareil');
  if (ms < options.now - options.maxAgeMs) throw badRequest('horodatage « ts » plus ancien que la durée de conservation des données');
  return new Date(ms);
}

/** What was sent instead, never serialized whole: a list nested 10 000 deep overflows JSON.stringify. */
function describe(raw: unknown): string {
  if (Array.isArray(raw)) return 'une liste';
  if (typeof raw === 'object' && raw !== null) return 'un objet';
  if (typeof raw === 'number') return 'un nombre infini';
  return JSON.stringify(raw)?.slice(0, 30) ?? 'undefined';
}

function parseValue(key: string, raw: unknown): number {
  const badName = measureNameProblem(key);
  if (badName) throw badRequest(badName);
  const value = typeof raw === 'boolean' ? (raw ? 1 : 0) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw badRequest(`la mesure « ${key} » doit être un nombre fini (ou un booléen), pas ${describe(raw)}`);
  }
  // Within its physical range: one absurd value would otherwise stand in every average and report.
  const outOfRange = measureValueProblem(key, value);
  if (outOfRange) throw badRequest(outOfRange);
  return value;
}

function parseReading(raw: unknown, options: ParseOptions): ParsedReading {
  if (!isPlainObject(raw)) throw badRequest('une lecture doit être un objet JSON');
  let entries: [string, unknown][];
  if (raw['values'] !== undefined) {
    if (!isPlainObject(raw['values'])) throw badRequest('« values » doit être un objet { "mesure": nombre }');
    const unknown = Object.keys(raw).find((key) => !RESERVED.has(key));
    if (unknown) throw badRequest(`champ inconnu « ${unknown.slice(0, 40)} » : placez les mesures dans « values »`);
    entries = Object.entries(raw['values']);
  } else {
    entries = Object.entries(raw).filter(([key]) => !RESERVED.has(key));
  }
  if (entries.length === 0) throw badRequest('aucune mesure dans la lecture');
  if (entries.length > MAX_VALUES_PER_READING) throw badRequest(`trop de mesures dans une lecture : ${MAX_VALUES_PER_READING} au plus`);
  const values = entries.map(([key, value]) => [key, parseValue(key, value)] as [string, number]);

  let readingId: string | null = null;
  const id = raw['id'];
  if (typeof id === 'string' && id.length > 0 && id.length <= 64) readingId = id;
  // JSON numbers arrive as doubles: past 2^53 − 1, or with a fraction, two ids the device typed
  // differently can read as the same number, and the second reading would be taken for a retry.
  else if (typeof id === 'number' && Number.isSafeInteger(id)) readingId = String(id);
  else if (typeof id === 'number') throw badRequest(UNSAFE_NUMERIC_ID);
  else if (id !== undefined && id !== null)
    throw badRequest('identifiant « id » invalide : une chaîne de 64 caractères au plus ou un nombre entier');

  let sensor: string | null = null;
  if (raw['sensor'] !== undefined) {
    if (!options.allowSensorReference) throw badRequest('seul un émetteur peut envoyer des lectures pour un capteur (champ « sensor »)');
    if (typeof raw['sensor'] !== 'string' || raw['sensor'].length === 0 || raw['sensor'].length > 64) {
      throw badRequest('« sensor » doit être le numéro de série ou l’identifiant du capteur');
    }
    sensor = raw['sensor'];
  }
  return { sensor, ts: parseTimestamp(raw['ts'], options), readingId, values };
}

/**
 * Validates a telemetry message (one reading, a flat object of values, or an array of readings)
 * as a whole: one bad reading refuses the message, so nothing of it is stored.
 */
export function parseTelemetry(payload: unknown, options: ParseOptions): ParsedReading[] {
  const list = Array.isArray(payload) ? payload : [payload];
  if (list.length === 0) throw badRequest('Aucune lecture à enregistrer : le tableau est vide.');
  if (list.length > MAX_READINGS_PER_MESSAGE) {
    throw new AppError(
      413,
      `Trop de lectures dans un seul envoi (${formatter.format(list.length)}) : ${formatter.format(MAX_READINGS_PER_MESSAGE)} au plus. Découpez l’envoi.`,
    );
  }
  return list.map((raw, index) => {
    try {
      return parseReading(raw, options);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const where = Array.isArray(payload) ? `Lecture n° ${index + 1} : ` : 'Lecture refusée : ';
      throw new AppError(error.statusCode, `${where}${error.message}.`);
    }
  });
}
