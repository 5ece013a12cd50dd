import type { AnomalyKind, ForecastBasis, Insights, PredictedBreach } from '@vigie/contract';
import { dayNumber, formatClock, formatDay, formatRelativeDay, partsOf } from '@/lib/clock-format';
import { formatDuration } from '@/lib/duration-format';
import { formatMeasure, formatNumber, formatThreshold, measureUnit } from '@/lib/measure-format';

export { formatClock, formatDay, formatRelativeDay } from '@/lib/clock-format';
export { formatThreshold } from '@/lib/measure-format';

// French words of the predictive analysis: times in the site's zone, signed limits, ranges of dates.

const NNBSP = '\u202F';
const NBSP = '\u00A0';

/** How far ahead the server forecasts (48 steps of 5 min). */
export const FORECAST_HORIZON_HOURS = 4;

export const ANOMALY_LABELS: Record<AnomalyKind, string> = {
  level_shift: 'Changement de niveau',
  drift: 'Dérive',
  flatline: 'Capteur figé',
  noise: 'Mesures instables',
  compressor: 'Compresseur',
  door_open: 'Porte ouverte',
  defrost_missed: 'Dégivrage manqué',
  defrost_long: 'Dégivrage trop long',
  pattern: 'Comportement inhabituel',
};

/** The French name of an anomaly kind; a kind this version does not know reads as unusual behaviour. */
export function anomalyLabel(kind: string): string {
  return (ANOMALY_LABELS as Record<string, string>)[kind] ?? ANOMALY_LABELS.pattern;
}

/** How strong an anomaly is, from its score (0 barely, 1 certain and severe). */
export function anomalyStrength(score: number): 'forte' | 'moyenne' | 'faible' {
  if (score >= 0.7) return 'forte';
  if (score >= 0.4) return 'moyenne';
  return 'faible';
}

/** « dans ~25 min », « dans ~2 h », « dans ~1 h 30 » (rounded: a forecast is no timetable). */
export function formatTimeUntil(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes <= 1) return 'imminent';
  if (minutes < 7.5) return 'dans quelques minutes';
  if (minutes < 55) return `dans ~${Math.round(minutes / 5) * 5}${NNBSP}min`;
  const halfHours = Math.round(minutes / 30);
  const hours = Math.floor(halfHours / 2);
  return `dans ~${hours}${NNBSP}h${halfHours % 2 === 1 ? `${NNBSP}30` : ''}`;
}

/** « +8 °C atteint vers 16 h 10 (dans ~2 h) »; « demain vers 0 h 40 » past midnight. */
export function breachText(breach: PredictedBreach, key: string, now: number, timeZone?: string): string {
  const eta = Date.parse(breach.eta);
  const day = formatRelativeDay(eta, now, timeZone);
  const when = day === 'aujourd’hui' ? '' : `${day} `;
  return `${formatThreshold(key, breach.threshold)} atteint ${when}vers ${formatClock(eta, timeZone)} (${formatTimeUntil(eta - now)})`;
}

/** How a shop manager reads a chance: « très probable » from 90 %, « probable » from 50 %, « possible » below. */
export function chanceWord(probability: number): string {
  if (probability >= 0.9) return 'très probable';
  if (probability >= 0.5) return 'probable';
  return 'possible';
}

/** « 72 % »; a forecast is never sure: « plus de 99 % », « moins de 1 % » at the ends. */
function percentText(probability: number): string {
  const percent = Math.round(probability * 100);
  if (percent >= 100) return `plus de 99${NNBSP}%`;
  if (percent < 1) return `moins de 1${NNBSP}%`;
  return `${formatNumber(percent, 0)}${NNBSP}%`;
}

/**
 * The rest of a predicted breach, each part when the server gave it: its likelihood (« Dépassement
 * probable (70 %) »), the hours its interval allows (« entre 15 h 40 et 16 h 50 », « à partir de
 * 15 h 40 » when the favourable side stays within the limit), and an hour that moved since the
 * previous analysis (« Heure revue : annoncée vers 16 h 45 à l’analyse précédente. »).
 */
export function breachDetails(breach: PredictedBreach, timeZone?: string): { title: string; window: string | null; moved: string | null } {
  const probability = breach.probability;
  const title = probability === undefined ? 'Dépassement prévu' : `Dépassement ${chanceWord(probability)} (${percentText(probability)})`;
  const earliest = breach.earliest === undefined ? null : Date.parse(breach.earliest);
  const latest = breach.latest === undefined || breach.latest === null ? null : Date.parse(breach.latest);
  let window: string | null = null;
  if (earliest !== null && latest !== null && latest - earliest >= 5 * 60_000)
    window = `Selon l’intervalle à 80${NNBSP}%, entre ${formatClock(earliest, timeZone)} et ${formatClock(latest, timeZone)}.`;
  else if (earliest !== null && breach.latest === null)
    window = `Selon l’intervalle à 80${NNBSP}%, à partir de ${formatClock(earliest, timeZone)}, s’il se produit.`;
  const moved =
    breach.movedFrom === undefined || breach.movedFrom === null
      ? null
      : `Heure revue${NNBSP}: ${Date.parse(breach.movedFrom) > Date.parse(breach.eta) ? 'plus tôt' : 'plus tard'} que l’heure annoncée à l’analyse précédente (vers ${formatClock(Date.parse(breach.movedFrom), timeZone)}).`;
  return { title, window, moved };
}

/** « D’après 4 relevés depuis 13 h 10 » (« depuis hier 23 h 40 » on another day): what the forecast rests on. */
export function basisText(basis: ForecastBasis, now: number, timeZone?: string): string {
  const since = Date.parse(basis.since);
  const day = formatRelativeDay(since, now, timeZone);
  const when = day === 'aujourd’hui' ? '' : `${day} `;
  const count = basis.readings === 1 ? '1 relevé' : `${formatNumber(basis.readings, 0)} relevés`;
  return `D’après ${count} depuis ${when}${formatClock(since, timeZone)}.`;
}

export const NO_BREACH_TEXT = `Aucun dépassement prévu dans les ${FORECAST_HORIZON_HOURS} prochaines heures`;

/** The values the forecast expects over its horizon, lowest and highest bounds of the interval. */
export function forecastRange(forecast: Insights['forecast']): { low: number; high: number; last: number } | null {
  if (forecast.length === 0) return null;
  let low = Infinity;
  let high = -Infinity;
  for (const point of forecast) {
    low = Math.min(low, point.low);
    high = Math.max(high, point.high);
  }
  return { low, high, last: forecast[forecast.length - 1]?.value ?? Number.NaN };
}

/** « entre 2,8 °C et 4,6 °C » over the horizon. */
export function forecastRangeText(key: string, forecast: Insights['forecast']): string | null {
  const range = forecastRange(forecast);
  if (!range) return null;
  return `Attendu dans ${FORECAST_HORIZON_HOURS}${NNBSP}h${NNBSP}: ${formatMeasure(key, range.last)}. Sur les ${FORECAST_HORIZON_HOURS} prochaines heures, entre ${formatMeasure(key, range.low)} et ${formatMeasure(key, range.high)} (intervalle à 80${NNBSP}%).`;
}

/**
 * When something happened: « aujourd’hui de 14 h 05 à 15 h 30 », « le 12 mars de 9 h à 9 h 40 »; a
 * span across midnight names both days (« du 12 mars à 23 h 40 au 13 mars à 0 h 20 »); one whose
 * `to` is null or within the last minutes is still going on (« depuis 14 h 05 »).
 */
export function formatSpan(from: string, to: string | null, now: number, timeZone?: string): string {
  const start = Date.parse(from);
  const end = to === null ? null : Date.parse(to);
  const startDay = formatRelativeDay(start, now, timeZone);
  if (end === null || now - end < 10 * 60_000) {
    return startDay === 'aujourd’hui' ? `depuis ${formatClock(start, timeZone)}` : `depuis ${startDay} à ${formatClock(start, timeZone)}`;
  }
  if (dayNumber(start, timeZone) === dayNumber(end, timeZone)) {
    return `${startDay} de ${formatClock(start, timeZone)} à ${formatClock(end, timeZone)}`;
  }
  const withYear = partsOf(start, timeZone).year !== partsOf(end, timeZone).year;
  return `du ${formatDay(start, timeZone, withYear)} à ${formatClock(start, timeZone)} au ${formatDay(end, timeZone, withYear)} à ${formatClock(end, timeZone)}`;
}

/** « 3,2 °C·h »: how far and how long a limit was passed, as one amount (the gap times the hours). */
export function degreeHoursAmount(key: string, degreeHours: number): string {
  const unit = measureUnit(key);
  const amount = degreeHours > 0 && degreeHours < 0.1 ? `<${NBSP}0,1` : formatNumber(degreeHours, 1, true);
  return `${amount}${NNBSP}${unit ? `${unit}·h` : 'unité·h'}`;
}

/** « Au-delà de +8 °C pendant 40 min, jusqu’à 11,2 °C »: what a person reads first of an excursion. */
export function excursionText(
  key: string,
  excursion: { threshold: number; peak: number; from: string; to: string | null },
  now: number,
): string {
  const side = excursion.peak >= excursion.threshold ? 'Au-delà de' : 'En deçà de';
  const lasted = formatDuration(excursion.from, excursion.to === null ? now : Date.parse(excursion.to));
  return `${side} ${formatThreshold(key, excursion.threshold)} pendant ${lasted}, jusqu’à ${formatMeasure(key, excursion.peak)}`;
}

/** Beyond this, the latest date stands for « not in sight » rather than a date. */
const FAR_MS = 5 * 365 * 86_400_000;

/**
 * « Pile à remplacer entre le 12 mars et le 2 avril 2027 »: a range, never a promise. A range that
 * starts now reads « d’ici le … »; one without an end in sight, « pas avant le … ».
 */
export function batteryText(battery: NonNullable<Insights['battery']>, now: number, timeZone?: string): string {
  const earliest = Date.parse(battery.earliest);
  const latest = Date.parse(battery.latest);
  if (latest - now > FAR_MS) return `Pile à remplacer pas avant le ${formatDay(earliest, timeZone, true)}`;
  if (earliest - now < 86_400_000) return `Pile à remplacer d’ici le ${formatDay(latest, timeZone, true)}`;
  if (dayNumber(earliest, timeZone) === dayNumber(latest, timeZone)) return `Pile à remplacer vers le ${formatDay(latest, timeZone, true)}`;
  const sameYear = partsOf(earliest, timeZone).year === partsOf(latest, timeZone).year;
  return `Pile à remplacer entre le ${formatDay(earliest, timeZone, !sameYear)} et le ${formatDay(latest, timeZone, true)}`;
}

/** « Date la plus probable : le 20 mars 2027. », when the range leaves room for one. */
export function batteryLikelyText(battery: NonNullable<Insights['battery']>, now: number, timeZone?: string): string | null {
  const earliest = Date.parse(battery.earliest);
  const latest = Date.parse(battery.latest);
  if (latest - now > FAR_MS || dayNumber(earliest, timeZone) === dayNumber(latest, timeZone)) return null;
  return `Date la plus probable${NNBSP}: le ${formatDay(Date.parse(battery.endOfLifeAt), timeZone, true)}.`;
}

/** « 25 min », « 1 h 05 ». */
function minutesText(minutes: number): string {
  const rounded = Math.max(1, Math.round(minutes));
  if (rounded < 60) return `${rounded}${NNBSP}min`;
  const rest = rounded % 60;
  return `${Math.floor(rounded / 60)}${NNBSP}h${rest ? `${NNBSP}${String(rest).padStart(2, '0')}` : ''}`;
}

/** « 12 dégivrages reconnus sur les 7 derniers jours, d’ordinaire 25 min ; le dernier aujourd’hui de 3 h à 3 h 25. » */
export function defrostText(defrosts: Insights['defrosts'], now: number, timeZone?: string): string {
  if (defrosts.length === 0) return 'Aucun dégivrage reconnu sur les 7 derniers jours.';
  const durations = defrosts.map((cycle) => (Date.parse(cycle.to) - Date.parse(cycle.from)) / 60_000).sort((a, b) => a - b);
  const median = durations[Math.floor(durations.length / 2)] ?? 0;
  const last = defrosts.reduce((latest, cycle) => (Date.parse(cycle.from) > Date.parse(latest.from) ? cycle : latest));
  const count = defrosts.length === 1 ? '1 dégivrage reconnu' : `${formatNumber(defrosts.length, 0)} dégivrages reconnus`;
  return `${count} sur les 7 derniers jours, d’ordinaire ${minutesText(median)}${NNBSP}; le dernier ${formatSpan(last.from, last.to, now, timeZone)}.`;
}

/** The first sentence of an explanation, cut at a word near `max` characters. */
export function shortExplanation(text: string, max = 120): string {
  const trimmed = text.trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(trimmed)?.[0] ?? trimmed;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}
