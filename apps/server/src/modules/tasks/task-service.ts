import { createHash } from 'node:crypto';
import {
  type CompleteTaskRequest,
  type OverviewSite,
  type Severity,
  type Task,
  type TaskAnswer,
  type TaskItem,
  type TaskListQuery,
  answerText,
  TASK_PHOTO_MAX_BYTES,
} from '@vigie/contract';
import { formatDateAt } from '@vigie/contract/clock';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';
import { occurrences } from './schedule.ts';
import type { TaskDal, TaskInsert, TaskRecord, TemplateRecord } from './task-dal.ts';
import type { TemplateService } from './template-service.ts';

export const TASK_NOT_FOUND = 'Tâche introuvable.';
export const PHOTO_NOT_FOUND = 'Photo introuvable.';

const HOUR = 3600 * 1000;
/** Tasks exist this far ahead (at least the next 24 h are always listed)… */
const HORIZON_MS = 48 * HOUR;
/** …and a template's are made again once fewer than this are left. */
const REFILL_MS = 24 * HOUR;
/** A phone's clock a minute ahead is not « the future ». */
const CLOCK_SKEW_MS = 60_000;
const PHOTOS_PER_TASK = 20;
/** Physical ranges of the numbers a person types, by unit; other units are held to the item's type bounds. */
const PHYSICAL: Record<string, [number, number]> = { '°C': [-100, 300], '%': [0, 100] };

/** What opens an alert for a task missed or answered out of its limits (the alerts module). */
export type OpenTaskAlert = (target: {
  organizationId: string;
  siteId: string;
  severity: Severity;
  taskId: string;
  at: Date;
  text: string;
}) => Promise<string | undefined>;

export function toTask(record: TaskRecord, withAnswers = false): Task {
  return {
    id: record.id,
    templateId: record.templateId,
    siteId: record.siteId,
    name: record.name,
    kind: record.kind,
    severity: record.severity,
    dueAt: record.dueAt.toISOString(),
    windowEndsAt: record.windowEndsAt.toISOString(),
    graceEndsAt: record.graceEndsAt.toISOString(),
    status: record.status,
    result: record.result,
    completedAt: record.completedAt?.toISOString() ?? null,
    completedBy: record.completedBy,
    completedByName: record.completedByName,
    comment: record.comment,
    items: record.items,
    ...(withAnswers ? { answers: record.answers ?? [] } : {}),
    alertId: record.alertId,
  };
}

/** Whether an answer meets its item's limits: the expected yes/no, a number within bounds, a choice not failing. */
function conforming(item: TaskItem, value: TaskAnswer['value']): boolean {
  if (value === null) return true;
  if (item.type === 'boolean') return item.expected === undefined || value === item.expected;
  if (item.type === 'number' && typeof value === 'number')
    return (item.min === undefined || value >= item.min) && (item.max === undefined || value <= item.max);
  if (item.type === 'choice') return !(item.failing ?? []).includes(String(value));
  return true;
}

/** The answer checked against its item's type; a French 400 otherwise. */
function checkValue(item: TaskItem, value: unknown, photos: ReadonlySet<string>): TaskAnswer['value'] {
  const name = `«\u202f${item.label}\u202f»`;
  switch (item.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw badRequest(`La réponse à ${name} est oui ou non (true ou false).`);
      return value;
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`La réponse à ${name} est un nombre.`);
      const [low, high] = PHYSICAL[item.unit ?? ''] ?? [-1_000_000, 1_000_000];
      if (value < low || value > high)
        throw badRequest(
          `La réponse à ${name} est hors des valeurs possibles (de ${low} à ${high}${item.unit ? `\u00a0${item.unit}` : ''}).`,
        );
      return value;
    }
    case 'text':
      if (typeof value !== 'string' || value.trim() === '') throw badRequest(`La réponse à ${name} est un texte.`);
      return value.trim();
    case 'choice':
      if (typeof value !== 'string' || !(item.options ?? []).includes(value))
        throw badRequest(`La réponse à ${name} est l’une de ses options : ${(item.options ?? []).join(', ')}.`);
      return value;
    case 'photo':
      if (typeof value !== 'string' || !photos.has(value))
        throw badRequest(`La réponse à ${name} est l’identifiant d’une photo jointe à cette tâche.`);
      return value;
  }
}

/** The image type read from its first bytes: JPEG, PNG or WebP, else undefined. */
export function imageType(bytes: Buffer): 'image/jpeg' | 'image/png' | 'image/webp' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * The tasks of the plan (docs/api.md, Plan de maîtrise sanitaire): made ahead from the templates in
 * each site's time zone, completed once within their window or grace, turned missed by the clock.
 */
export function createTaskService(deps: {
  dal: TaskDal;
  now: () => Date;
  templates: TemplateService;
  openAlert: OpenTaskAlert;
  /** A task completed or missed, for the live stream. */
  announce: (organizationId: string, action: 'completed' | 'missed', task: Task) => void;
  /** Whether a signed report of the site covers this instant (decision 0046: a signed month is never rewritten). */
  signed: (siteId: string, at: Date) => Promise<boolean>;
}) {
  const { dal } = deps;

  /** Makes a template's tasks due in [from, to) in every site it covers, and moves its horizon to `to`. */
  async function generate(template: TemplateRecord, from: number, to: number): Promise<number> {
    const rows: TaskInsert[] = [];
    const start = Math.max(from, template.createdAt.getTime());
    for (const site of await deps.templates.covered(template.organizationId, template)) {
      for (const occurrence of occurrences(template.schedule, site.timezone, start, to)) {
        rows.push({
          organizationId: template.organizationId,
          templateId: template.id,
          siteId: site.id,
          name: template.name,
          kind: template.kind,
          severity: template.severity,
          items: template.items,
          ...occurrence,
        });
      }
    }
    return dal.addTasks(template.id, rows, new Date(to));
  }

  /** Opens the alert of a task missed or answered out of its limits, once. */
  async function alertFor(record: TaskRecord): Promise<void> {
    if (record.alertId) return;
    const text =
      record.status === 'missed'
        ? `Tâche «\u202f${record.name}\u202f» non faite : attendue de ${formatDateAt(record.dueAt)} au plus tard à ${formatDateAt(record.graceEndsAt)}.`
        : `Tâche «\u202f${record.name}\u202f» non conforme : ${(record.answers ?? [])
            .filter((answer) => !answer.conforming)
            .map((answer) => `${answer.label} (${answerText(answer)})`)
            .join(', ')}.`;
    const at = record.status === 'missed' ? record.graceEndsAt : (record.completedAt ?? deps.now());
    const alertId = await deps.openAlert({
      organizationId: record.organizationId,
      siteId: record.siteId,
      severity: record.severity,
      taskId: record.id,
      at,
      text,
    });
    if (alertId) await dal.setAlert(record.id, alertId);
  }

  async function find(organizationId: string, id: string): Promise<TaskRecord> {
    const record = await dal.find(organizationId, id);
    if (!record) throw notFound(TASK_NOT_FOUND);
    return record;
  }

  /** A task of a period a signed report covers is read as it was signed, never changed. */
  async function unsigned(record: Pick<TaskRecord, 'siteId' | 'dueAt'>): Promise<void> {
    if (await deps.signed(record.siteId, record.dueAt))
      throw conflict(
        'Le rapport signé de ce magasin couvre cette tâche : elle ne se modifie plus. Notez ce qui a été fait sur son alerte.',
      );
  }

  return {
    /** A new or edited template's tasks, from now to the horizon. */
    async scheduled(template: TemplateRecord): Promise<void> {
      const now = deps.now().getTime();
      await generate(template, now, now + HORIZON_MS);
    },

    async list(organizationId: string, siteIds: readonly string[] | null, query: TaskListQuery): Promise<Task[]> {
      const rows = await dal.list(organizationId, {
        siteIds,
        siteId: query.siteId,
        status: query.status,
        ...(query.from ? { from: new Date(query.from) } : {}),
        ...(query.to ? { to: new Date(query.to) } : {}),
      });
      return rows.map((row) => toTask(row));
    },

    async get(organizationId: string, id: string): Promise<Task> {
      return toTask(await find(organizationId, id), true);
    },

    /** A site's tasks due in [from, to), with their answers and their photos' SHA-256, for its monthly report. */
    async dueDuring(organizationId: string, siteId: string, from: Date, to: Date): Promise<(Task & { photoHashes: string[] })[]> {
      const rows = await dal.list(organizationId, { siteIds: [siteId], from, to }, 10_000);
      const hashes = await dal.photoHashes(rows.map((row) => row.id));
      return rows.map((row) => ({ ...toTask(row, true), photoHashes: hashes.get(row.id) ?? [] }));
    },

    /** This period's tasks of each site, for the chain's overview. */
    async countsBySite(organizationId: string, from: Date, to: Date): Promise<Map<string, NonNullable<OverviewSite['tasks']>>> {
      const counts = new Map<string, NonNullable<OverviewSite['tasks']>>();
      for (const row of await dal.countsBySite(organizationId, from, to)) {
        const site = counts.get(row.siteId) ?? { due: 0, done: 0, late: 0, missed: 0, nonconforming: 0 };
        site.due += row.count;
        if (row.status !== 'pending') site[row.status] += row.count;
        if (row.nonconforming) site.nonconforming += row.count;
        counts.set(row.siteId, site);
      }
      return counts;
    },

    async siteOf(organizationId: string, id: string): Promise<string | undefined> {
      return (await dal.find(organizationId, id))?.siteId;
    },

    async complete(organizationId: string, by: { id: string; name: string }, id: string, input: CompleteTaskRequest): Promise<Task> {
      const now = deps.now();
      await unsigned(await find(organizationId, id));
      const photos = new Set((await dal.photos(id)).map((photo) => photo.id));
      const record = await dal.complete(organizationId, id, (task) => {
        if (task.status === 'done' || task.status === 'late')
          throw conflict(
            `Cette tâche a déjà été remplie par ${task.completedByName ?? 'un membre'} (${formatDateAt(task.completedAt ?? now)}).`,
          );
        const givenAt = input.completedAt ? new Date(input.completedAt) : now;
        if (givenAt.getTime() > now.getTime() + CLOCK_SKEW_MS) throw badRequest('Une tâche ne peut pas être remplie dans le futur.');
        if (givenAt < task.dueAt)
          throw conflict(`Cette tâche n’est pas encore due : elle se remplit à partir de ${formatDateAt(task.dueAt)}.`);
        // Answers given in time on a phone without network still count once it is back; later ones do not.
        if (givenAt > task.graceEndsAt || (task.status === 'missed' && !input.completedAt))
          throw conflict(`Cette tâche est manquée : elle se remplissait au plus tard à ${formatDateAt(task.graceEndsAt)}.`);
        const items = new Map(task.items.map((item) => [item.id, item]));
        const given = new Map<string, unknown>();
        for (const answer of input.answers) {
          if (!items.has(answer.itemId)) throw badRequest('Une réponse nomme un point de contrôle que cette tâche n’a pas.');
          if (given.has(answer.itemId)) throw badRequest('Un point de contrôle reçoit une seule réponse.');
          given.set(answer.itemId, answer.value);
        }
        const answers: TaskAnswer[] = task.items.map((item) => {
          if (!given.has(item.id)) {
            if (item.required) throw badRequest(`Répondez à «\u202f${item.label}\u202f».`);
            return {
              itemId: item.id,
              label: item.label,
              type: item.type,
              value: null,
              ...(item.unit ? { unit: item.unit } : {}),
              conforming: true,
            };
          }
          const value = checkValue(item, given.get(item.id), photos);
          return {
            itemId: item.id,
            label: item.label,
            type: item.type,
            value,
            ...(item.unit ? { unit: item.unit } : {}),
            conforming: conforming(item, value),
          };
        });
        return {
          status: givenAt <= task.windowEndsAt ? 'done' : 'late',
          result: answers.every((answer) => answer.conforming) ? 'ok' : 'nonconforming',
          completedAt: givenAt,
          completedBy: by.id,
          completedByName: by.name,
          answers,
          comment: input.comment ?? null,
        };
      });
      if (!record) throw notFound(TASK_NOT_FOUND);
      if (record.result === 'nonconforming') await alertFor(record);
      const task = toTask((await dal.find(organizationId, id)) ?? record, true);
      deps.announce(organizationId, 'completed', task);
      return task;
    },

    async addPhoto(organizationId: string, by: string, id: string, bytes: Buffer): Promise<{ id: string; sha256: string; size: number }> {
      const task = await find(organizationId, id);
      // A missed task still takes the photo of answers given in time on a phone without network.
      if (task.status === 'done' || task.status === 'late') throw conflict('Cette tâche n’attend plus de photo : elle est remplie.');
      await unsigned(task);
      if (bytes.length === 0) throw badRequest('La photo est vide.');
      if (bytes.length > TASK_PHOTO_MAX_BYTES) throw new AppError(413, 'La photo dépasse 5 Mo.');
      const contentType = imageType(bytes);
      if (!contentType) throw new AppError(415, 'Ce fichier n’est pas une photo JPEG, PNG ou WebP.');
      if ((await dal.photos(id)).length >= PHOTOS_PER_TASK) throw conflict(`Une tâche garde ${PHOTOS_PER_TASK} photos au plus.`);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const photo = await dal.addPhoto({
        organizationId,
        taskId: id,
        contentType,
        content: bytes,
        sha256,
        size: bytes.length,
        createdBy: by,
      });
      return { id: photo.id, sha256, size: photo.size };
    },

    async photo(organizationId: string, taskId: string, id: string): Promise<{ contentType: string; content: Buffer }> {
      const photo = await dal.photo(organizationId, taskId, id);
      if (!photo) throw notFound(PHOTO_NOT_FOUND);
      return photo;
    },

    /**
     * The clock (every 15 s, on every instance): templates whose tasks run out within a day get the
     * next ones; tasks past their grace turn missed, each once, and open their alert.
     */
    async tick(): Promise<{ made: number; missed: number }> {
      const now = deps.now().getTime();
      let made = 0;
      for (const template of await dal.templatesBefore(new Date(now + REFILL_MS), 100)) {
        made += await generate(template, template.generatedUntil.getTime(), now + HORIZON_MS);
      }
      const missed = await dal.markMissed(new Date(now), 500);
      for (const record of missed) {
        await alertFor(record);
        deps.announce(record.organizationId, 'missed', toTask(record));
      }
      // An alert an instance stopped before opening.
      for (const record of await dal.withoutAlert(new Date(now), 100)) await alertFor(record);
      return { made, missed: missed.length };
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
