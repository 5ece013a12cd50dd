/**
 * npm run bench:tasks — the clock of the food-safety plan (docs/api.md, Plan de maîtrise sanitaire)
 * at 500 shops × 12 templates, on the embedded database (PGlite, in a temporary folder) and on a
 * fresh PostgreSQL database (`PG_ADMIN_URL`, the local server by default). The clock is injected:
 * the ticks run at the times of a shop's day, not at the machine's.
 *
 * On each kind of database, two chains, each on a database of its own: one with one week of tasks
 * stored, one with four (the older ones answered, a few late, out of limits or missed with their
 * alert handled, as in a shop that follows its plan), measured in turn — tick after tick, round
 * after round — on three mornings (Monday to Wednesday), so that what else the machine does weighs
 * on both alike. Each morning at 8 h 20 the tick makes the next
 * tasks (on the first morning, the shops' 8 h round is then answered through the task service);
 * 20 ticks 15 s apart from 8 h 25 find nothing due (the common tick); at 8 h 30 the 500 opening
 * rounds (7 h, window 1 h, grace 30 min) end their grace unanswered, and the ticks run every 15 s
 * of the clock, as the job does (TASK_CLOCK_SECONDS), until their 500 alerts are opened.
 * Budgets (the issue): a tick's time with four weeks stored ÷ with one week ≤ 1,5 — the common
 * tick's (median of 60) and the round's (the shortest of 3, the least disturbed by the rest of the
 * machine): its work grows with what is due, not with
 * what is stored; the alert of a missed task opened ≤ 60 s after its grace, counted at worst: the
 * job ran just before the grace ended, the next tick comes 15 s later, then the tick's own time
 * (more ticks when one leaves work for the next). On PostgreSQL, the rows and blocks the common
 * tick's statements read (each replayed with EXPLAIN ANALYZE in a transaction rolled back) are
 * printed too; its tables are vacuumed after the bulk writes, as autovacuum would (the embedded
 * database has no autovacuum: its dead rows stay). Exits non-zero when a budget is missed.
 *
 * The past is written in bulk (SQL, from the schedule's own occurrences); the ticks measured are
 * the real ones, `tick()` of the task service and of the processes, with the notifier's passes
 * that each opened alert sets off running beside them, as on a server.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import type { CreateTaskTemplateRequest, Site, TaskAnswer, TaskItem, TaskTemplate } from '@vigie/contract';
import { type Database, rowsOf } from '../apps/server/src/db/database.ts';
import { occurrences } from '../apps/server/src/modules/tasks/schedule.ts';
import { createTaskDal } from '../apps/server/src/modules/tasks/task-dal.ts';
import { createTestApp, tempDir, type TestApp } from '../apps/server/src/test/test-app.ts';
import { fmt } from './support';
import { answersOf } from './task-answers';

const SHOPS = 500;
const QUIET_TICKS = 20;
const TICK_SECONDS = 15;
const BUDGETS = { ratio: 1.5, alertDelayS: 60 };
const HOUR = 3600_000;

/**
 * Time zones that share the French legal time: the 500 opening rounds end their grace at the same
 * instant — the worst case for the clock.
 */
const ZONES: [string, number][] = [
  ['Europe/Paris', 400],
  ['Europe/Brussels', 30],
  ['Europe/Luxembourg', 20],
  ['Europe/Madrid', 20],
  ['Europe/Monaco', 15],
  ['Europe/Zurich', 15],
];

const yes = (label: string): CreateTaskTemplateRequest['items'][number] => ({ label, type: 'boolean', expected: true, required: true });
const degrees = (label: string, min: number, max: number): CreateTaskTemplateRequest['items'][number] => ({
  label,
  type: 'number',
  unit: '°C',
  min,
  max,
  required: true,
});
const daily = (times: string[], windowMinutes: number, graceMinutes: number): CreateTaskTemplateRequest['schedule'] => ({
  frequency: 'daily',
  times,
  windowMinutes,
  graceMinutes,
});

const OPENING = 'Ouverture du magasin';
const COLD_ROOMS = 'Températures des chambres froides';
/** Twelve templates for every shop: ten tasks a day each, a weekly and a monthly few. Every grace ends before midnight. */
const TEMPLATES: Omit<CreateTaskTemplateRequest, 'locked'>[] = [
  {
    name: OPENING,
    kind: 'checklist',
    severity: 'critical',
    items: [yes('Portes des chambres froides fermées'), degrees('Chambre froide positive', 0, 4), yes('Plans de travail propres')],
    schedule: daily(['07:00'], 60, 30),
  },
  {
    name: COLD_ROOMS,
    kind: 'checklist',
    severity: 'warning',
    items: [degrees('Chambre froide positive', 0, 4), degrees('Chambre froide négative', -30, -18)],
    schedule: daily(['08:00', '16:00'], 60, 60),
  },
  {
    name: 'Réception des marchandises',
    kind: 'checklist',
    severity: 'warning',
    items: [
      degrees('Température à cœur des produits frais', 0, 4),
      { label: 'État des emballages', type: 'choice', options: ['Conforme', 'Abîmé'], failing: ['Abîmé'], required: true },
    ],
    schedule: daily(['10:00'], 120, 60),
  },
  {
    name: 'Huile de friture',
    kind: 'oil',
    severity: 'warning',
    items: [{ label: 'Composés polaires', type: 'number', unit: '%', min: 0, max: 24, required: true }],
    schedule: daily(['11:00'], 60, 30),
  },
  {
    name: 'Vitrines réfrigérées',
    kind: 'checklist',
    severity: 'warning',
    items: [degrees('Vitrine traiteur', 0, 4), degrees('Vitrine boucherie', 0, 2)],
    schedule: daily(['12:00', '18:00'], 60, 30),
  },
  {
    name: 'Nettoyage des plans de travail',
    kind: 'cleaning',
    severity: 'warning',
    items: [yes('Plans de travail nettoyés et désinfectés')],
    schedule: daily(['14:00'], 120, 60),
  },
  {
    name: 'Fermeture du magasin',
    kind: 'checklist',
    severity: 'critical',
    items: [yes('Chambres froides fermées'), yes('Produits entamés filmés et datés'), { label: 'Remarque', type: 'text', required: false }],
    schedule: daily(['20:00'], 60, 30),
  },
  {
    name: 'Nettoyage des sols',
    kind: 'cleaning',
    severity: 'warning',
    items: [yes('Sols du laboratoire lavés')],
    schedule: daily(['21:00'], 60, 30),
  },
  {
    name: 'Nettoyage approfondi de la chambre froide',
    kind: 'cleaning',
    severity: 'warning',
    items: [yes('Étagères vidées et désinfectées'), yes('Joints de porte nettoyés')],
    schedule: { frequency: 'weekly', times: ['15:00'], weekdays: [1], windowMinutes: 180, graceMinutes: 60 },
  },
  {
    name: 'Lutte contre les nuisibles',
    kind: 'pest_control',
    severity: 'warning',
    items: [{ label: 'Traces de nuisibles', type: 'choice', options: ['Aucune', 'Traces'], failing: ['Traces'], required: true }],
    schedule: { frequency: 'weekly', times: ['09:00'], weekdays: [3], windowMinutes: 240, graceMinutes: 120 },
  },
  {
    name: 'Vérification des thermomètres',
    kind: 'thermometer',
    severity: 'warning',
    items: [{ label: 'Écart avec la sonde étalon', type: 'number', unit: '°C', min: -0.5, max: 0.5, required: true }],
    schedule: { frequency: 'monthly', times: ['09:30'], dayOfMonth: 1, windowMinutes: 480, graceMinutes: 240 },
  },
  {
    name: 'Contrôle de la hotte',
    kind: 'cleaning',
    severity: 'warning',
    items: [yes('Filtres de la hotte dégraissés')],
    schedule: { frequency: 'monthly', times: ['13:00'], dayOfMonth: 15, windowMinutes: 240, graceMinutes: 120 },
  },
];

/** Midnight in Paris (winter, UTC+1) of a calendar day: the start of the shops' day. */
const parisMidnight = (day: string) => Date.parse(`${day}T00:00:00+01:00`);
/** Monday 5 January 2026 (no change of legal time until the end of March). */
const START = parisMidnight('2026-01-05');
/** The mornings measured: Monday to Wednesday one week after the first templates, then four weeks after. */
const PHASES = [
  { label: '1 semaine', first: parisMidnight('2026-01-12') },
  { label: '4 semaines', first: parisMidnight('2026-02-02') },
];
const MORNINGS = 3;
const minutes = (hours: number, mins = 0) => (hours * 60 + mins) * 60_000;

/** The answers as stored: what the service writes on completion. */
function storedAnswers(items: readonly TaskItem[], conforming: boolean): TaskAnswer[] {
  const given = new Map(answersOf(items, conforming).map((answer) => [answer.itemId, answer.value]));
  return items.map((item, index) => ({
    itemId: item.id,
    label: item.label,
    type: item.type,
    value: given.get(item.id) ?? null,
    ...(item.unit ? { unit: item.unit } : {}),
    conforming: conforming || index !== 0,
  }));
}

const pgArray = (values: readonly string[]) => `{${values.join(',')}}`;
/** An instant as a statement's parameter, the same on both drivers. */
const at = (instant: number) => sql`${new Date(instant).toISOString()}::timestamptz`;

interface Tick {
  ms: number;
  made: number;
  missed: number;
}

interface Round {
  /** The ticks from the grace's end until the 500 alerts were there, and the tasks each turned missed. */
  ticks: Tick[];
  /** The time of the ticks that did the work. */
  ms: number;
  /** From the grace's end to the last alert, at worst (the job ran just before the grace ended). */
  delayMs: number;
  alerts: number;
}

interface Phase {
  label: string;
  /** The tasks stored on the first morning, by state. */
  stored: number;
  byStatus: string;
  completedByService: number;
  /** Every common tick of the mornings, sorted. */
  quiet: number[];
  /** PostgreSQL: what the last common tick's statements read. */
  quietReads: { rows: number; blocks: number } | undefined;
  rounds: Round[];
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The statements a PostgreSQL client sends while `run` runs (all clients of this process). */
async function capture<T>(run: () => Promise<T>): Promise<{ result: T; statements: { text: string; values: unknown[] }[] }> {
  const statements: { text: string; values: unknown[] }[] = [];
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, ...args: unknown[]) {
    const [config, values] = args;
    if (typeof config === 'string') statements.push({ text: config, values: Array.isArray(values) ? values : [] });
    else if (config && typeof config === 'object' && 'text' in config) {
      const query = config as { text: string; values?: unknown[] };
      statements.push({ text: query.text, values: query.values ?? (Array.isArray(values) ? values : []) });
    }
    return original.apply(this, args);
  };
  try {
    return { result: await run(), statements };
  } finally {
    prototype.query = original;
  }
}

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  /** A node's blocks count its children's. */
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/**
 * Rows the scans of a plan read: those a scan returned or its filter dropped, and every entry a
 * bitmap index scan handed to its heap scan (the dead ones too, which the heap scan drops unseen).
 */
function rowsRead(node: PlanNode): number {
  const loops = node['Actual Loops'] ?? 1;
  const removed = (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
  const type = node['Node Type'];
  const own =
    type === 'Bitmap Heap Scan'
      ? removed * loops
      : /Scan$/.test(type) && type !== 'Function Scan'
        ? ((node['Actual Rows'] ?? 0) + removed) * loops
        : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0);
}

/**
 * Replays the statements with EXPLAIN (ANALYZE, BUFFERS) in a transaction rolled back: the rows
 * their scans read and the blocks (8 kio pages) they touched.
 */
async function replayReads(url: string, statements: { text: string; values: unknown[] }[]): Promise<{ rows: number; blocks: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const total = { rows: 0, blocks: 0 };
  try {
    for (const { text, values } of statements) {
      if (!/^\s*(select|update|insert|delete|with)\b/i.test(text)) continue;
      await client.query('begin');
      try {
        const result = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
          `explain (analyze, buffers, format json) ${text}`,
          values,
        );
        const plan = result.rows[0]?.['QUERY PLAN'][0]?.Plan ?? { 'Node Type': 'Result' };
        total.rows += rowsRead(plan);
        total.blocks += (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
      } finally {
        await client.query('rollback');
      }
    }
  } finally {
    await client.end();
  }
  return total;
}

interface Chain {
  phase: Phase;
  /** The morning's preparation: the past up to its midnight, the tick of 8 h 20, the code warmed up. */
  prepare(morning: number): Promise<string>;
  /** The n-th common tick of the morning, from 8 h 25. */
  quiet(morning: number, n: number): Promise<void>;
  /** The opening round missed at 8 h 30, ticked until its 500 alerts are there. */
  round(morning: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A chain of 500 shops and its plan, made through the API on a database of its own, whose
 * mornings are those of `phase`: its past is written up to them, then they are measured.
 */
async function openChain(label: string, phase: (typeof PHASES)[number], databaseUrl: string | undefined): Promise<Chain> {
  const dataDir = databaseUrl ? undefined : tempDir('vigie-bench-tasks-');
  let clock = START - HOUR;
  const t: TestApp = await createTestApp({
    now: () => new Date(clock),
    env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
    ...(dataDir ? { dataDir } : {}),
  });
  const close = async () => {
    await t.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const db: Database = t.database.db;
    const dal = createTaskDal(db);
    const services = t.app.services;
    const query = <T>(statement: SQL) => rowsOf<T>(db, statement);
    const started = performance.now();
    const owner = await t.createAccount({ organization: `Chaîne ${Date.now()}`, name: 'Directrice qualité' });
    const by = { id: owner.id, name: 'Équipe du magasin' };
    const api = async <T>(url: string, payload: object): Promise<T> => {
      const response = await t.app.inject({ method: 'POST', url: `/api${url}`, headers: owner.auth, payload });
      if (response.statusCode !== 201) throw new Error(`${url} : ${response.statusCode} ${response.body}`);
      return response.json<T>();
    };

    // The chain: 500 shops, then its plan, made through the API (each template makes its next 48 h at once).
    const zoneOf = ZONES.flatMap(([zone, count]) => Array.from({ length: count }, () => zone));
    const shops: Site[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let n = next++; n < SHOPS; n = next++)
          shops[n] = (await api<{ site: Site }>('/sites', { name: `Magasin ${n + 1}`, timezone: zoneOf[n] ?? 'Europe/Paris' })).site;
      }),
    );
    const templates: TaskTemplate[] = [];
    for (const template of TEMPLATES) templates.push((await api<{ template: TaskTemplate }>('/task-templates', template)).template);
    const byName = (name: string) => {
      const found = templates.find((template) => template.name === name);
      if (!found) throw new Error(`Modèle ${name} absent.`);
      return found;
    };
    const zones = new Map<string, string[]>();
    for (const shop of shops) zones.set(shop.timezone, [...(zones.get(shop.timezone) ?? []), shop.id]);
    console.log(
      `${label}, ${phase.label} : ${fmt(SHOPS)} magasins et ${TEMPLATES.length} modèles créés par l’API en ${fmt((performance.now() - started) / 1000, 1)} s`,
    );

    /**
     * The plan's past, written in bulk: the occurrences of every template in every shop due in
     * [from, to) (the schedule's own), answered — most in their window, a few late, 1 % out of
     * limits and 1 % missed, those with their alert, handled — and the templates' horizon moved to `to`.
     */
    async function history(from: number, to: number): Promise<void> {
      for (const template of templates) {
        for (const [zone, siteIds] of zones) {
          const due = occurrences(template.schedule, zone, from, to);
          if (due.length === 0) continue;
          const instants = (pick: (o: (typeof due)[number]) => Date) => pgArray(due.map((o) => pick(o).toISOString()));
          await db.execute(sql`
            insert into tasks (organization_id, template_id, site_id, name, kind, severity, items, due_at, window_ends_at, grace_ends_at)
            select ${owner.organizationId}::uuid, ${template.id}::uuid, shop.id, ${template.name}, ${template.kind}, ${template.severity},
              ${JSON.stringify(template.items)}::jsonb, o.due_at, o.window_ends_at, o.grace_ends_at
            from unnest(${pgArray(siteIds)}::uuid[]) as shop(id)
            cross join unnest(${instants((o) => o.dueAt)}::timestamptz[], ${instants((o) => o.windowEndsAt)}::timestamptz[],
              ${instants((o) => o.graceEndsAt)}::timestamptz[]) as o(due_at, window_ends_at, grace_ends_at)
            on conflict do nothing`);
        }
        // Answered as the shops answer: by the hash of the task's id, 96 % in the window, 2 % late, 1 % out of limits, 1 % missed.
        await db.execute(sql`
          update tasks set
            status = case when h.n < 96 or h.n = 98 then 'done' when h.n < 98 then 'late' else 'missed' end,
            result = case when h.n < 98 then 'ok' when h.n = 98 then 'nonconforming' end,
            completed_at = case when h.n < 96 or h.n = 98 then due_at + (window_ends_at - due_at) / 3
              when h.n < 98 then window_ends_at + (grace_ends_at - window_ends_at) / 2 end,
            completed_by = case when h.n < 99 then ${owner.id}::uuid end,
            completed_by_name = case when h.n < 99 then ${by.name} end,
            answers = case when h.n < 98 then ${JSON.stringify(storedAnswers(template.items, true))}::jsonb
              when h.n = 98 then ${JSON.stringify(storedAnswers(template.items, false))}::jsonb end
          from (select id, abs(hashtext(id::text)) % 100 as n from tasks
                where template_id = ${template.id}::uuid and status = 'pending' and due_at < ${at(to)}) as h
          where tasks.id = h.id`);
        await dal.addTasks(template.id, [], new Date(to));
      }
      // Their alerts: opened at the failure, a corrective action, resolved by hand; the notifier has planned them.
      await db.execute(sql`
        with failed as (
          insert into alerts (organization_id, task_id, site_id, status, severity, opened_at, resolved_at, resolution, revision)
          select organization_id, id, site_id, 'resolved', severity, coalesce(completed_at, grace_ends_at),
            coalesce(completed_at, grace_ends_at) + interval '2 hours', 'manual', 3
          from tasks where alert_id is null and (status = 'missed' or result = 'nonconforming') and due_at < ${at(to)}
          on conflict do nothing
          returning id, organization_id, task_id, opened_at, resolved_at
        ), linked as (
          update tasks set alert_id = failed.id from failed where tasks.id = failed.task_id returning tasks.id
        ), planned as (
          insert into notification_schedule (alert_id, organization_id, revision, due_at)
          select id, organization_id, 3, null from failed returning alert_id
        )
        insert into alert_events (alert_id, type, at, text)
        select id, 'opened', opened_at, 'Tâche manquée ou non conforme.' from failed
        union all select id, 'action', opened_at + interval '1 hour', 'Contrôle refait, produits vérifiés.' from failed
        union all select id, 'resolved', resolved_at, null from failed`);
    }

    const timedTick = async (): Promise<Tick> => {
      const begin = performance.now();
      const done = await services.tasks.tasks.tick();
      await services.tasks.processes.tick();
      return { ms: performance.now() - begin, ...done };
    };

    const measured: Phase = {
      label: phase.label,
      stored: 0,
      byStatus: '',
      completedByService: 0,
      quiet: [],
      quietReads: undefined,
      rounds: [],
    };
    const dayOf = (morning: number) => phase.first + morning * 24 * HOUR;
    let from = START - HOUR;
    return {
      phase: measured,
      close,

      async prepare(morning) {
        const begin = performance.now();
        const day = dayOf(morning);
        await history(from, day);
        from = day;
        // 8 h 20: the tick of the morning makes the next tasks (the opening round of 7 h among them).
        clock = day + minutes(8, 20);
        const warm = await timedTick();
        if (warm.missed !== 0) throw new Error(`${warm.missed} tâches manquées avant la mesure.`);
        await services.notifications.tick();
        if (morning === 0) {
          // The 8 h round of every shop, answered through the service, as on a phone.
          const coldRooms = byName(COLD_ROOMS);
          const round = await query<{ id: string }>(sql`
            select id from tasks where template_id = ${coldRooms.id}::uuid and due_at >= ${at(day)} and due_at < ${at(day + minutes(9))}`);
          const answers = answersOf(coldRooms.items, true);
          for (const { id } of round) await services.tasks.tasks.complete(owner.organizationId, by, id, { answers });
          measured.completedByService = round.length;
          const counts = await query<{ status: string; count: number }>(
            sql`select status, count(*)::int as count from tasks group by status order by status`,
          );
          measured.stored = counts.reduce((sum, row) => sum + row.count, 0);
          measured.byStatus = counts.map((row) => `${fmt(row.count)} ${row.status}`).join(', ');
        }
        // PostgreSQL's autovacuum passes after such writes; the embedded database has none, its dead rows stay.
        if (databaseUrl) await db.execute(sql`vacuum (analyze) tasks, alerts, alert_events, notification_schedule`);
        // The common tick every 15 s from 8 h 20: the code warms up.
        for (let n = 1; n < 20; n += 1) {
          clock = day + minutes(8, 20) + n * TICK_SECONDS * 1000;
          await timedTick();
        }
        return `${fmt((performance.now() - begin) / 1000, 1)} s`;
      },

      async quiet(morning, n) {
        clock = dayOf(morning) + minutes(8, 25) + n * TICK_SECONDS * 1000;
        const last = databaseUrl !== undefined && morning === MORNINGS - 1 && n === QUIET_TICKS - 1;
        const { result: tick, statements } = last ? await capture(timedTick) : { result: await timedTick(), statements: [] };
        if (tick.made !== 0 || tick.missed !== 0) throw new Error('Un tick courant a trouvé du travail.');
        measured.quiet.push(tick.ms);
        if (last && databaseUrl) measured.quietReads = await replayReads(databaseUrl, statements);
      },

      async round(morning) {
        // 8 h 30: the 500 opening rounds end their grace. At worst the job ran just before; the next
        // ticks come every 15 s, each after the last one ended when it ran longer.
        const opening = byName(OPENING);
        const graceEnd = dayOf(morning) + minutes(8, 30);
        const roundAlerts = async () =>
          (
            await query<{ count: number }>(sql`
              select count(*)::int as count from alerts join tasks on tasks.id = alerts.task_id
              where tasks.template_id = ${opening.id}::uuid and tasks.grace_ends_at = ${at(graceEnd)} and tasks.status = 'missed'`)
          )[0]?.count ?? 0;
        const round: Round = { ticks: [], ms: 0, delayMs: 0, alerts: 0 };
        let start = TICK_SECONDS * 1000;
        while (round.alerts < SHOPS && round.ticks.length < 10) {
          clock = graceEnd + start;
          const tick = await timedTick();
          round.ticks.push(tick);
          if (tick.missed > 0) round.ms += tick.ms;
          round.delayMs = start + tick.ms;
          start = Math.max(start + TICK_SECONDS * 1000, round.delayMs);
          round.alerts = await roundAlerts();
        }
        measured.rounds.push(round);
        // What the opened alerts set off ends before anything else is measured.
        await services.notifications.tick();
        // The morning's alerts are handled before the day goes on (the notifier has nothing left of them).
        await db.execute(sql`
          update alerts set status = 'resolved', resolved_at = ${at(graceEnd + 2 * HOUR)}, resolution = 'manual', revision = revision + 1
          where status <> 'resolved'`);
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The two chains — one week stored, four weeks stored — measured in turn, tick after tick and
 * round after round, so that what else the machine does weighs on both alike.
 */
async function measure(label: string, databaseUrls: [string, string] | undefined): Promise<Phase[]> {
  const chains: Chain[] = [];
  try {
    for (const [index, phase] of PHASES.entries()) chains.push(await openChain(label, phase, databaseUrls?.[index]));
    for (let morning = 0; morning < MORNINGS; morning += 1) {
      const prepared: string[] = [];
      for (const chain of chains) prepared.push(`${chain.phase.label} préparée en ${await chain.prepare(morning)}`);
      const begin = performance.now();
      for (let n = 0; n < QUIET_TICKS; n += 1) for (const chain of n % 2 ? [...chains].reverse() : chains) await chain.quiet(morning, n);
      for (const chain of morning % 2 ? [...chains].reverse() : chains) await chain.round(morning);
      console.log(
        `${label}, matin ${morning + 1} : ${prepared.join(', ')} ; ticks mesurés en ${fmt((performance.now() - begin) / 1000, 1)} s`,
      );
    }
    for (const chain of chains) chain.phase.quiet.sort((x, y) => x - y);
    return chains.map((chain) => chain.phase);
  } finally {
    for (const chain of chains) await chain.close();
  }
}

function report(label: string, phases: Phase[]): boolean {
  const [week, month] = phases;
  if (!week || !month) throw new Error('Mesure incomplète.');
  const roundsOf = (phase: Phase) => phase.rounds.map((round) => round.ms);
  console.log(`\n${label}`);
  for (const phase of [week, month])
    console.log(
      `  ${phase.label} : ${fmt(phase.stored)} tâches en base (${phase.byStatus}) ; ronde de 8 h remplie par le service : ${fmt(phase.completedByService)} ; ` +
        `ronde d’ouverture manquée, par matin : ${phase.rounds.map((round) => round.ticks.map((tick) => `${fmt(tick.ms)} ms (${fmt(tick.missed)} manquées)`).join(' + ')).join(', ')}`,
    );
  const quietRatio = median(month.quiet) / median(week.quiet);
  // The shortest round of each: the one the rest of the machine disturbed least (a round lasts
  // seconds, long enough for another program's burst to weigh on one and not the other).
  const roundRatio = Math.min(...roundsOf(month)) / Math.min(...roundsOf(week));
  const delayOf = (phase: Phase) => Math.max(...phase.rounds.map((round) => round.delayMs)) / 1000;
  const ticksOf = (phase: Phase) => Math.max(...phase.rounds.map((round) => round.ticks.length));
  const alertsOk = [week, month].every((phase) => phase.rounds.every((round) => round.alerts === SHOPS));
  const alertsOf = (phase: Phase) =>
    `${phase.rounds.map((round) => fmt(round.alerts)).join(', ')} en ${ticksOf(phase)} tick${ticksOf(phase) > 1 ? 's' : ''}`;
  const rows = [
    {
      label: `tick courant (rien de dû), médiane de ${fmt(week.quiet.length)}`,
      week: `${fmt(median(week.quiet), 1)} ms`,
      month: `${fmt(median(month.quiet), 1)} ms`,
      ratio: fmt(quietRatio, 2),
      budget: `≤ ${fmt(BUDGETS.ratio, 1)}`,
      ok: quietRatio <= BUDGETS.ratio,
    },
    ...(week.quietReads && month.quietReads
      ? [
          {
            label: 'tick courant : lignes lues, blocs touchés (EXPLAIN ANALYZE)',
            week: `${fmt(week.quietReads.rows)}, ${fmt(week.quietReads.blocks)}`,
            month: `${fmt(month.quietReads.rows)}, ${fmt(month.quietReads.blocks)}`,
            ratio: '',
            budget: 'pour information',
            ok: true,
          },
        ]
      : []),
    {
      label: `tick de la ronde d’ouverture (${fmt(SHOPS)} alertes), le plus court de ${MORNINGS}`,
      week: `${fmt(Math.min(...roundsOf(week)))} ms`,
      month: `${fmt(Math.min(...roundsOf(month)))} ms`,
      ratio: fmt(roundRatio, 2),
      budget: `≤ ${fmt(BUDGETS.ratio, 1)}`,
      ok: roundRatio <= BUDGETS.ratio,
    },
    {
      label: 'alerte ouverte après la grâce, au pire (15 s + ticks)',
      week: `${fmt(delayOf(week), 1)} s`,
      month: `${fmt(delayOf(month), 1)} s`,
      ratio: '',
      budget: `≤ ${BUDGETS.alertDelayS} s`,
      ok: Math.max(delayOf(week), delayOf(month)) <= BUDGETS.alertDelayS,
    },
    {
      label: 'alertes de chaque ronde (alerts.task_id)',
      week: alertsOf(week),
      month: alertsOf(month),
      ratio: '',
      budget: `${fmt(SHOPS)}`,
      ok: alertsOk,
    },
  ];
  console.log(`${'mesure'.padEnd(64)} | ${'1 semaine'.padStart(22)} | ${'4 semaines'.padStart(22)} | ${'rapport'.padStart(7)} | budget`);
  for (const row of rows)
    console.log(
      `${row.label.padEnd(64)} | ${row.week.padStart(22)} | ${row.month.padStart(22)} | ${row.ratio.padStart(7)} | ${row.budget}${row.budget === 'pour information' ? '' : row.ok ? ' tenu' : ' MANQUÉ'}`,
    );
  return rows.every((row) => row.ok);
}

const admin = process.env['PG_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const names = PHASES.map((_, index) => `vigie_bench_tasks_${process.pid}_${index + 1}`);
const onAdmin = async (statement: string) => {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};
const drop = () => Promise.all(names.map((name) => onAdmin(`drop database if exists "${name}" with (force)`)));
try {
  for (const name of names) await onAdmin(`create database "${name}"`);
} catch (error) {
  console.error(`PostgreSQL injoignable (${admin}) : ${(error as Error).message}. Ce banc mesure les deux bases.`);
  await drop().catch(() => undefined);
  process.exit(1);
}
let ok: boolean;
try {
  const urls = names.map((name) => {
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return url.toString();
  });
  const embedded = await measure('Base embarquée (PGlite)', undefined);
  const server = await measure('PostgreSQL', [urls[0] ?? '', urls[1] ?? '']);
  const embeddedOk = report('Base embarquée (PGlite)', embedded);
  ok = report('PostgreSQL', server) && embeddedOk;
} finally {
  await drop();
}
if (!ok) {
  console.error('\nnpm run bench:tasks : budget manqué.');
  process.exit(1);
}
console.log('\nnpm run bench:tasks : les budgets tiennent.');
process.exit(0);
