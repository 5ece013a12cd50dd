import {
  type CreateProcessRequest,
  type Process,
  PROCESS_KIND_LABELS,
  PROCESS_RULES,
  type ProcessListQuery,
  type ProcessReadingRequest,
  type Severity,
} from '@vigie/contract';
import { formatClock, formatDateAt } from '@vigie/contract/clock';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { ProcessDal, ProcessInsert, ProcessRecord } from './process-dal.ts';

export const PROCESS_NOT_FOUND = 'Procédé introuvable.';

const MINUTE = 60_000;
const LIMIT_MS = PROCESS_RULES.minutes * MINUTE;
const MAX_AGE_MS = 24 * 3600 * 1000;
const CLOCK_SKEW_MS = 60_000;

/** What opens the alert of a failed process (the alerts module). */
export type OpenProcessAlert = (target: {
  organizationId: string;
  siteId: string;
  severity: Severity;
  processId: string;
  at: Date;
  text: string;
}) => Promise<string | undefined>;

const degrees = (value: number) => `${value.toLocaleString('fr-FR', { maximumFractionDigits: 1 })}\u00a0°C`;

export function toProcess(record: ProcessRecord): Process {
  return {
    id: record.id,
    kind: record.kind,
    siteId: record.siteId,
    product: record.product,
    sensorId: record.sensorId,
    startedAt: record.startedAt.toISOString(),
    deadline: record.deadline.toISOString(),
    readings: record.readings,
    status: record.status,
    failure: record.failure,
    endedAt: record.endedAt?.toISOString() ?? null,
    startedBy: record.startedBy,
    startedByName: record.startedByName,
    alertId: record.alertId,
  };
}

/**
 * One reading applied to a running process: cooling is `ok` at its first reading at or below
 * +10 °C before its deadline, hot holding `failed` at a reading below +63 °C or after a gap past its
 * deadline. Returns the changes, the process staying `running` when nothing is decided.
 */
function applyReading(
  record: Pick<ProcessRecord, 'kind' | 'deadline' | 'readings'>,
  temperature: number,
  at: Date,
  zone: string,
): Partial<ProcessInsert> {
  const readings = [...record.readings, { temperature, at: at.toISOString() }];
  if (record.kind === 'cooling') {
    if (at > record.deadline) return { readings, status: 'failed', failure: coolingFailure(record), endedAt: record.deadline };
    if (temperature <= PROCESS_RULES.coolTarget) return { readings, status: 'ok', endedAt: at };
    return { readings };
  }
  if (at > record.deadline) return { readings, status: 'failed', failure: holdingGap(), endedAt: record.deadline };
  if (temperature < PROCESS_RULES.hotMin)
    return {
      readings,
      status: 'failed',
      failure: `${degrees(temperature)} à ${formatClock(at, zone)} : sous +${PROCESS_RULES.hotMin}\u00a0°C.`,
      endedAt: at,
    };
  return { readings, deadline: new Date(at.getTime() + LIMIT_MS) };
}

function coolingFailure(record: Pick<ProcessRecord, 'readings'>): string {
  const last = record.readings[record.readings.length - 1];
  return `+${PROCESS_RULES.coolTarget}\u00a0°C non atteints en ${PROCESS_RULES.minutes / 60}\u00a0h${last ? ` (dernière lecture ${degrees(last.temperature)})` : ''}.`;
}

const holdingGap = () => `Plus de ${PROCESS_RULES.minutes / 60}\u00a0h sans lecture de température.`;

/**
 * Timed processes (docs/api.md, Plan de maîtrise sanitaire): cooling of cooked food from +63 °C to
 * +10 °C within two hours, hot holding at +63 °C or above read at most two hours apart. A failed
 * process opens an alert; the clock fails those whose deadline passed, with nobody watching.
 */
export function createProcessService(deps: {
  dal: ProcessDal;
  now: () => Date;
  /** The site's time zone; throws its 404 when not the organization's. */
  siteZone: (organizationId: string, siteId: string) => Promise<string>;
  /** The site of a sensor of the organization, or undefined. */
  sensorSite: (organizationId: string, sensorId: string) => Promise<string | undefined>;
  openAlert: OpenProcessAlert;
  /** Whether a signed report of the site covers this instant (decision 0046: a signed month is never rewritten). */
  signed: (siteId: string, at: Date) => Promise<boolean>;
}) {
  const { dal } = deps;
  const SIGNED = 'Le rapport signé de ce magasin couvre ce procédé : il ne se modifie plus.';

  async function alertFor(record: ProcessRecord): Promise<void> {
    if (record.status !== 'failed' || record.alertId) return;
    const zone = await deps.siteZone(record.organizationId, record.siteId).catch(() => 'Europe/Paris');
    const alertId = await deps.openAlert({
      organizationId: record.organizationId,
      siteId: record.siteId,
      severity: 'critical',
      processId: record.id,
      at: record.endedAt ?? deps.now(),
      text: `${PROCESS_KIND_LABELS[record.kind]} de «\u202f${record.product}\u202f» commencé ${formatDateAt(record.startedAt, zone)} en échec : ${record.failure ?? ''}`,
    });
    if (alertId) await dal.setAlert(record.id, alertId);
  }

  function moment(value: string | undefined, now: Date, what: string, after?: Date): Date {
    const at = value ? new Date(value) : now;
    if (at.getTime() > now.getTime() + CLOCK_SKEW_MS) throw badRequest(`${what} ne peut pas être dans le futur.`);
    if (now.getTime() - at.getTime() > MAX_AGE_MS) throw badRequest(`${what} remonte à 24 h au plus.`);
    if (after && at < after) throw badRequest(`${what} ne peut pas précéder la dernière lecture notée.`);
    return at;
  }

  // The sensors that feed a running process, read again every few seconds (another instance may have
  // started one) and at once when this one starts one: readings of other sensors cost a set lookup.
  let probes = new Set<string>();
  let probesReadAt = 0;
  let reading: Promise<void> | undefined;
  const refreshProbes = () => {
    reading ??= dal
      .probesRunning()
      .then((ids) => {
        probes = new Set(ids);
        probesReadAt = Date.now();
      })
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };

  /** A probe's readings are its processes' readings, in the order they were taken. */
  async function fromProbe(organizationId: string, sensorId: string, readings: { ts: Date; temperature: number }[]): Promise<void> {
    for (const process of await dal.runningOn(organizationId, sensorId)) {
      const zone = await deps.siteZone(organizationId, process.siteId).catch(() => 'Europe/Paris');
      const record = await dal.change(organizationId, process.id, (current) => {
        let changes: Partial<ProcessInsert> = {};
        let state = current;
        for (const { ts, temperature } of readings) {
          const last = state.readings[state.readings.length - 1];
          if (state.status !== 'running' || ts < state.startedAt || (last && ts <= new Date(last.at))) continue;
          const step = applyReading(state, temperature, ts, zone);
          changes = { ...changes, ...step };
          state = { ...state, ...step } as ProcessRecord;
        }
        return changes;
      });
      if (record) await alertFor(record);
    }
  }

  return {
    /**
     * Readings stored: those of a sensor feeding a running process are its readings. Off the path
     * of the device's acknowledgement; a reading of any other sensor costs a set lookup.
     */
    readingsStored(readings: readonly { organizationId: string; sensorId: string; ts: Date; values: Record<string, number> }[]): void {
      if (Date.now() - probesReadAt > 5_000) void refreshProbes();
      const fed = new Map<string, { organizationId: string; readings: { ts: Date; temperature: number }[] }>();
      for (const row of readings) {
        const temperature = row.values['temperature'];
        if (temperature === undefined || !probes.has(row.sensorId)) continue;
        const entry = fed.get(row.sensorId) ?? { organizationId: row.organizationId, readings: [] };
        entry.readings.push({ ts: row.ts, temperature });
        fed.set(row.sensorId, entry);
      }
      for (const [sensorId, entry] of fed) {
        entry.readings.sort((a, b) => a.ts.getTime() - b.ts.getTime());
        void fromProbe(entry.organizationId, sensorId, entry.readings).catch(() => undefined);
      }
    },

    async create(organizationId: string, by: { id: string; name: string }, input: CreateProcessRequest): Promise<Process> {
      const zone = await deps.siteZone(organizationId, input.siteId);
      if (input.sensorId) {
        const site = await deps.sensorSite(organizationId, input.sensorId);
        if (site === undefined) throw notFound('Capteur introuvable.');
        if (site !== input.siteId) throw badRequest('Cette sonde n’est pas dans ce magasin.');
      }
      if (input.temperature === undefined && !input.sensorId) throw badRequest('Donnez la première température du produit (temperature).');
      const now = deps.now();
      const startedAt = moment(input.startedAt, now, 'Le début');
      if (await deps.signed(input.siteId, startedAt))
        throw conflict('Le rapport signé de ce magasin couvre ce moment : un procédé ne peut plus y commencer.');
      if (input.kind === 'cooling' && input.temperature !== undefined && input.temperature < PROCESS_RULES.hotMin)
        throw badRequest(
          `Un refroidissement rapide commence à +${PROCESS_RULES.hotMin}\u00a0°C ou plus : ${degrees(input.temperature)} est déjà en dessous.`,
        );
      const base = {
        kind: input.kind,
        deadline: new Date(startedAt.getTime() + LIMIT_MS),
        readings: [] as ProcessRecord['readings'],
      };
      let changes: Partial<ProcessInsert> = { ...base, status: 'running' };
      if (input.temperature !== undefined) {
        // The first reading of hot holding is judged like the others; cooling's is its start.
        changes =
          input.kind === 'cooling'
            ? { ...base, status: 'running', readings: [{ temperature: input.temperature, at: startedAt.toISOString() }] }
            : { status: 'running', ...applyReading(base, input.temperature, startedAt, zone) };
      }
      let record = await dal.create({
        organizationId,
        siteId: input.siteId,
        kind: input.kind,
        product: input.product,
        sensorId: input.sensorId ?? null,
        startedAt,
        deadline: changes.deadline ?? base.deadline,
        readings: changes.readings ?? [],
        status: changes.status ?? 'running',
        failure: changes.failure ?? null,
        endedAt: changes.endedAt ?? null,
        startedBy: by.id,
        startedByName: by.name,
      });
      if (record.sensorId && record.status === 'running') probes.add(record.sensorId);
      // Started in the past: its deadline may already be gone.
      if (record.status === 'running' && record.deadline <= now) {
        const failed = await dal.change(organizationId, record.id, (current) =>
          current.status === 'running'
            ? { status: 'failed', failure: current.kind === 'cooling' ? coolingFailure(current) : holdingGap(), endedAt: current.deadline }
            : {},
        );
        record = failed ?? record;
      }
      await alertFor(record);
      return toProcess((await dal.find(organizationId, record.id)) ?? record);
    },

    async list(organizationId: string, siteIds: readonly string[] | null, query: ProcessListQuery): Promise<Process[]> {
      return (await dal.list(organizationId, { siteIds, siteId: query.siteId, status: query.status })).map(toProcess);
    },

    /** A site's processes started in [from, to), for its monthly report. */
    async startedDuring(organizationId: string, siteId: string, from: Date, to: Date): Promise<Process[]> {
      return (await dal.startedDuring(organizationId, siteId, from, to)).map(toProcess);
    },

    async siteOf(organizationId: string, id: string): Promise<string | undefined> {
      return (await dal.find(organizationId, id))?.siteId;
    },

    async addReading(organizationId: string, id: string, input: ProcessReadingRequest): Promise<Process> {
      const existing = await dal.find(organizationId, id);
      if (!existing) throw notFound(PROCESS_NOT_FOUND);
      if (await deps.signed(existing.siteId, existing.startedAt)) throw conflict(SIGNED);
      const zone = await deps.siteZone(organizationId, existing.siteId).catch(() => 'Europe/Paris');
      const now = deps.now();
      const record = await dal.change(organizationId, id, (current) => {
        if (current.status !== 'running') throw conflict('Ce procédé est terminé : il ne prend plus de lecture.');
        const last = current.readings[current.readings.length - 1];
        const at = moment(input.at, now, 'Une lecture', last ? new Date(last.at) : current.startedAt);
        return applyReading(current, input.temperature, at, zone);
      });
      if (!record) throw notFound(PROCESS_NOT_FOUND);
      await alertFor(record);
      return toProcess((await dal.find(organizationId, id)) ?? record);
    },

    async end(organizationId: string, id: string): Promise<Process> {
      const now = deps.now();
      const existing = await dal.find(organizationId, id);
      if (!existing) throw notFound(PROCESS_NOT_FOUND);
      if (await deps.signed(existing.siteId, existing.startedAt)) throw conflict(SIGNED);
      const record = await dal.change(organizationId, id, (current) => {
        if (current.status !== 'running') throw conflict('Ce procédé est déjà terminé.');
        if (current.kind === 'cooling')
          throw conflict(
            `Un refroidissement se termine seul : à +${PROCESS_RULES.coolTarget}\u00a0°C ou moins avant son échéance, sinon en échec à son échéance.`,
          );
        if (now > current.deadline) return { status: 'failed', failure: holdingGap(), endedAt: current.deadline };
        return { status: 'ok', endedAt: now };
      });
      if (!record) throw notFound(PROCESS_NOT_FOUND);
      await alertFor(record);
      return toProcess((await dal.find(organizationId, id)) ?? record);
    },

    /** The clock: running processes past their deadline fail, each once, and open their alert. */
    async tick(): Promise<number> {
      const failed = await dal.failDue(deps.now(), (record) => (record.kind === 'cooling' ? coolingFailure(record) : holdingGap()), 200);
      for (const record of failed) await alertFor(record);
      for (const record of await dal.withoutAlert(50)) await alertFor(record);
      return failed.length;
    },
  };
}

export type ProcessService = ReturnType<typeof createProcessService>;
