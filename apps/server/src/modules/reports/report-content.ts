import type { ReportSummary } from '@vigie/contract';

/**
 * Everything a HACCP report says, computed once when it is made and stored as its JSON snapshot
 * beside the PDF and CSV rendered from it. Instants are ISO strings (UTC); days are the site's
 * calendar days `YYYY-MM-DD`; durations are seconds; temperatures are °C.
 */
export interface ReportContent {
  /** The report's identifier, printed in every page's footer. */
  reportId: string;
  organizationName: string;
  siteName: string;
  /** IANA time zone of the site: every date and hour of the report is read on its clock. */
  timezone: string;
  month: string;
  /** When the report was made. */
  createdAt: string;
  /** Who asked for it; null when the monthly job made it. */
  createdByName: string | null;
  summary: ReportSummary;
  units: ReportUnit[];
  /** Temperatures taken by hand in the month (a product, a delivery, a unit), oldest first; absent in older reports. */
  checks?: ReportCheck[];
  /** The food-safety plan of the month: its tasks and timed processes; absent in older reports. */
  plan?: ReportPlan;
  /** The sign-off, in the signed copy only: its block is filled with it. */
  signature?: ReportSignature;
  /**
   * In a report of a month already signed: its figures are the signed report's, and what came
   * after the signature is listed here, never applied to them (decision 0046).
   */
  amendments?: ReportAmendments;
}

/** What was recorded about a signed month after its signature: shown beside the signed figures. */
export interface ReportAmendments {
  signedReportId: string;
  signedAt: string;
  signedBy: string;
  /** The SHA-256 of the signed PDF. */
  signedSha256: string;
  /** Verifications dated inside the signed period, recorded after the signature: not applied to it. */
  corrections: ReportCorrection[];
  /** Manual checks of the period entered after the signature, with both dates. */
  lateChecks: (ReportCheck & { enteredAt: string })[];
  /** What was noted on alerts of the period after the signature: acknowledgements, corrective actions, resolutions. */
  lateActions: (ReportActionLine & { sensorName: string; alertOpenedAt: string })[];
  /** Readings of the period received after the signature, per unit: stored, never counted in the signed figures. */
  lateReadings: { sensorName: string; count: number }[];
}

/** A verification of a signed period: who, when, why, and the size of its correction. */
export interface ReportCorrection {
  sensorName: string;
  verifiedAt: string;
  recordedAt: string;
  by: string;
  method: string;
  note: string | null;
  /** What the sensor read above the reference (°C). */
  offset: number;
  /** From when it corrects the temperatures: the end of the signed period. */
  appliesFrom: string;
}

/** Who signed the report, as the signed copy prints it. */
export interface ReportSignature {
  name: string;
  /** The signer's role, in French (« Administrateur », « Responsable »). */
  role: string;
  /** When, ISO 8601; printed on the site's clock. */
  at: string;
  comment: string | null;
  /** What the signer was told before signing (a month not yet ended, alerts still open). */
  notes: string[];
}

/** Where a unit's limits come from: its alert rules on temperature. */
export interface LimitSource {
  ruleName: string;
  /** The regulation the preset follows (e.g. « Arrêté du 21 décembre 2009, annexe I »), when the rule came from a preset. */
  regulation: string | null;
  /** The preset's label (e.g. « Surgelés : ≤ −18 °C »), when any. */
  presetLabel: string | null;
}

export interface ReportDay {
  /** `YYYY-MM-DD` on the site's clock. */
  date: string;
  /** Null on a day without any reading. */
  min: number | null;
  mean: number | null;
  max: number | null;
  readings: number;
  /** Seconds of that day outside limits (0 without limits). */
  outOfRangeSeconds: number;
  /** Seconds of that day without data (gaps longer than the sensor's inactivity timeout, and before the first reading). */
  noDataSeconds: number;
}

export interface ReportActionLine {
  at: string;
  /** The person's name (or e-mail); null when recorded by the system. */
  by: string | null;
  text: string;
  /** A guided action's label (« Produits transférés… ») when it was chosen from the list. */
  kind?: string | null;
  /** What became of the products: « Détruits : 12 kg de yaourts nature ». */
  fate?: string | null;
}

/** The food-safety plan of the month (docs/api.md, Plan de maîtrise sanitaire), as an inspector reads it. */
export interface ReportPlan {
  /** Every task due in the period, by due time. */
  tasks: ReportTask[];
  /** The cooling and hot-holding processes started in the period, oldest first. */
  processes: ReportProcess[];
}

export interface ReportTask {
  name: string;
  dueAt: string;
  /** « Faite », « En retard », « Manquée », « À faire ». */
  status: string;
  nonconforming: boolean;
  completedAt: string | null;
  completedBy: string | null;
  /** The answers out of their limits: « Température de la chambre froide : 9,5 °C ». */
  findings: string[];
  comment: string | null;
  /** The photos taken for it, by their SHA-256. */
  photos: string[];
  /** What was done about a missed or non-conforming task: its alert's corrective actions. */
  actions: ReportActionLine[];
}

export interface ReportProcess {
  /** « Refroidissement rapide », « Maintien au chaud ». */
  kind: string;
  product: string;
  startedAt: string;
  endedAt: string | null;
  /** « Conforme », « En échec », « En cours ». */
  status: string;
  failed: boolean;
  failure: string | null;
  first: number | null;
  last: number | null;
  readings: number;
  by: string;
  actions: ReportActionLine[];
}

/** A temperature taken by hand, as the report lists it. */
export interface ReportCheck {
  at: string;
  by: string;
  /** « Livraison à la réception », « Produit contrôlé à la sonde », « Relevé manuel d’un meuble ». */
  kind: string;
  /** What was checked: the product, its supplier, the unit. */
  subject: string;
  temperature: number;
  /** A delivery: « Acceptée », « Refusée : 3 colis »; null otherwise. */
  decision: string | null;
  note: string | null;
}

/** An alert of a report: who acknowledged it and the corrective actions, with who and when. */
export interface ReportAlert {
  id: string;
  severity: 'critical' | 'warning';
  status: 'open' | 'acknowledged' | 'resolved';
  openedAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  resolvedAt: string | null;
  resolution: 'auto' | 'manual' | null;
  actions: ReportActionLine[];
}

/**
 * An alert of the period that no measured excursion covers: the sensor fell silent or its battery
 * ran low, or a breach was followed by silence. Its corrective actions are part of the record too.
 */
export interface ReportOtherAlert extends ReportAlert {
  /** What it was about, in French: « Hors ligne », « Batterie faible », « Température (suivie d’un silence) »… */
  reason: string;
}

/** A continuous time out of limits, from the readings, with the alert that covered it if any. */
export interface ReportExcursion {
  start: string;
  /** Null while it still runs at the end of the period. */
  end: string | null;
  durationSeconds: number;
  /** The value furthest from the limit. */
  peak: number;
  direction: 'above' | 'below';
  /** The alert raised for it, if one was. */
  alert: ReportAlert | null;
}

/** A time without any reading longer than the sensor's inactivity timeout: shown as a gap, never filled in. */
export interface ReportGap {
  from: string;
  to: string;
  durationSeconds: number;
}

export interface ReportBatteryEvent {
  at: string;
  /** e.g. « Batterie faible : 12 % » or « Alerte batterie acquittée ». */
  text: string;
}

/** A point of the month's chart: the min and max of readings in a bucket (null: no data in it). */
export interface ReportChartPoint {
  from: string;
  to: string;
  min: number | null;
  max: number | null;
}

/** A unit's last verification against a reference instrument at the end of the period. */
export interface ReportVerification {
  verifiedAt: string;
  method: string;
  /** What the sensor read above the reference (°C); its temperatures are corrected by it. */
  offset: number;
  nextDueAt: string | null;
  by: string;
  certificate: { fileName: string; sha256: string } | null;
}

/** A pause of the unit's notifications (planned work), within the period. */
export interface ReportPause {
  from: string;
  until: string;
  reason: string;
  /** The unit itself, or its whole shop. */
  scope: 'sensor' | 'site';
  by: string | null;
}

export interface ReportUnit {
  sensorId: string;
  name: string;
  serial: string | null;
  model: string | null;
  key: 'temperature';
  unit: '°C';
  /** The limits the unit is held to (the tightest of its rules); null when none is set. */
  min: number | null;
  max: number | null;
  limitSources: LimitSource[];
  inactivityTimeoutSeconds: number;
  readingCount: number;
  /** Over the whole period: null without any reading. */
  minValue: number | null;
  meanValue: number | null;
  maxValue: number | null;
  days: ReportDay[];
  chart: ReportChartPoint[];
  /** Excursions lasting at least the tolerance, or that raised an alert, or still running. */
  excursions: ReportExcursion[];
  /**
   * Short rises the unit's rules tolerate (shorter than their alert delay, e.g. a door opened for a
   * delivery or a defrost), counted rather than listed one by one; they still count as out of limits.
   */
  briefExcursions: { count: number; totalSeconds: number; toleranceSeconds: number };
  gaps: ReportGap[];
  /** Alerts of the period that no excursion above covers (offline, battery, a breach followed by silence). */
  otherAlerts: ReportOtherAlert[];
  battery: { first: number | null; last: number | null; min: number | null; events: ReportBatteryEvent[] };
  /** Alerts of the unit still active when the report was made (any rule). */
  openItems: number;
  /** Its last verification by the end of the period; null when none (absent from reports made before the register). */
  verification?: ReportVerification | null;
  /** Pauses of its notifications for planned work within the period (absent from reports made before pauses). */
  pauses?: ReportPause[];
}
