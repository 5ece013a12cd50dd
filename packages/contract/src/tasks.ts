import { z } from 'zod';
import { severitySchema } from './alerts.ts';
import { isoDateTimeSchema, nameSchema, uuidSchema } from './common.ts';
import { hasOverloadedCharacter, OVERLOADED_CHARACTER_MESSAGE } from './text.ts';
import { TASK_KINDS, ITEM_TYPES, PROCESS_KINDS } from './values/tasks.ts';

export * from './values/tasks.ts';

/**
 * The shop's food-safety plan (docs/api.md, Plan de maîtrise sanitaire): checks people make on a
 * schedule (opening and closing rounds, cleaning, pest control, frying oil, thermometers), taken on a
 * phone, turned missed by the clock, and timed processes (cooling, hot holding).
 */

const text = (what: string, max: number) =>
  z
    .string({ error: `${what} doit être une chaîne de caractères.` })
    .trim()
    .min(1, { error: `${what} est obligatoire.` })
    .max(max, { error: `${what} compte ${max} caractères au plus.` })
    .refine((value) => !hasOverloadedCharacter(value), { error: OVERLOADED_CHARACTER_MESSAGE });

/** Bounds of a number an item may ask for: wide enough for a temperature, a percentage or a count. */
export const ITEM_NUMBER_BOUND = 1_000_000;
const itemNumber = (what: string) =>
  z
    .number({ error: `${what} doit être un nombre.` })
    .min(-ITEM_NUMBER_BOUND, { error: `${what} est hors des valeurs possibles.` })
    .max(ITEM_NUMBER_BOUND, { error: `${what} est hors des valeurs possibles.` });

export const taskItemInputSchema = z
  .strictObject(
    {
      /** Kept when a template is edited; given by the server when left out. */
      id: uuidSchema.optional(),
      label: text('Le libellé', 200),
      type: z.enum(ITEM_TYPES, { error: 'Type de point inconnu : boolean, number, text, choice ou photo.' }),
      required: z.boolean({ error: 'required doit valoir true ou false.' }).default(true),
      /** A number's unit, as shown beside it (« °C », « % »). */
      unit: text('L’unité', 16).optional(),
      min: itemNumber('Le minimum').optional(),
      max: itemNumber('Le maximum').optional(),
      /** A choice's options. */
      options: z.array(text('Une option', 100), { error: 'options est une liste de textes.' }).min(2).max(20).optional(),
      /** The options of a choice that make the answer non-conforming. */
      failing: z.array(text('Une option', 100), { error: 'failing est une liste de textes.' }).max(20).optional(),
      /** A yes/no item's expected answer: the other one is non-conforming. */
      expected: z.boolean({ error: 'expected doit valoir true ou false.' }).optional(),
    },
    { error: 'Un point de contrôle est attendu sous la forme {label, type, …}.' },
  )
  .refine((item) => item.type !== 'choice' || (item.options?.length ?? 0) >= 2, { error: 'Un choix propose au moins deux options.' })
  .refine((item) => (item.failing ?? []).every((option) => item.options?.includes(option)), {
    error: 'Les options non conformes (failing) font partie des options du choix.',
  })
  .refine((item) => item.min === undefined || item.max === undefined || item.min <= item.max, {
    error: 'Le minimum d’un nombre ne dépasse pas son maximum.',
  })
  .refine((item) => item.expected === undefined || item.type === 'boolean', { error: 'Seul un point oui/non a une réponse attendue.' });
export type TaskItemInput = z.input<typeof taskItemInputSchema>;

export const taskItemSchema = z.object({
  id: uuidSchema,
  label: z.string(),
  type: z.enum(ITEM_TYPES),
  required: z.boolean(),
  unit: z.string().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  options: z.array(z.string()).optional(),
  failing: z.array(z.string()).optional(),
  expected: z.boolean().optional(),
});
export type TaskItem = z.infer<typeof taskItemSchema>;

export const TASK_FREQUENCIES = ['daily', 'weekly', 'monthly', 'once'] as const;
export type TaskFrequency = (typeof TASK_FREQUENCIES)[number];

const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export const taskScheduleSchema = z
  .strictObject(
    {
      frequency: z.enum(TASK_FREQUENCIES, { error: 'Fréquence inconnue : daily, weekly, monthly ou once.' }),
      /** Local times of the site, « HH:MM ». */
      times: z
        .array(z.string().regex(TIME_PATTERN, { error: 'Une heure s’écrit « HH:MM », de 00:00 à 23:59.' }), {
          error: 'times est une liste d’heures « HH:MM ».',
        })
        .min(1, { error: 'Donnez au moins une heure.' })
        .max(24, { error: '24 heures par jour au plus.' })
        .optional(),
      /** ISO weekdays, 1 (Monday) to 7 (Sunday). */
      weekdays: z
        .array(z.number().int().min(1).max(7), { error: 'weekdays est une liste de jours de 1 (lundi) à 7 (dimanche).' })
        .min(1, { error: 'Donnez au moins un jour de la semaine.' })
        .max(7)
        .optional(),
      dayOfMonth: z
        .number({ error: 'dayOfMonth doit être un nombre.' })
        .int()
        .min(1, { error: 'dayOfMonth va de 1 à 31.' })
        .max(31, { error: 'dayOfMonth va de 1 à 31.' })
        .optional(),
      /** `once`: when it is due. */
      dueAt: isoDateTimeSchema.optional(),
      windowMinutes: z
        .number({ error: 'windowMinutes doit être un nombre de minutes.' })
        .int()
        .min(1, { error: 'La fenêtre dure au moins 1 minute.' })
        .max(1440, { error: 'La fenêtre dure 24 h au plus.' }),
      graceMinutes: z
        .number({ error: 'graceMinutes doit être un nombre de minutes.' })
        .int()
        .min(0, { error: 'Le délai de grâce ne peut pas être négatif.' })
        .max(1440, { error: 'Le délai de grâce dure 24 h au plus.' }),
    },
    { error: 'Le calendrier est attendu sous la forme {frequency, times, windowMinutes, graceMinutes…}.' },
  )
  .refine((s) => s.frequency === 'once' || s.times !== undefined, { error: 'Un calendrier répété donne ses heures (times).' })
  .refine((s) => s.frequency !== 'once' || (s.dueAt !== undefined && s.times === undefined), {
    error: 'Une tâche unique donne son échéance (dueAt) et pas d’heures.',
  })
  .refine((s) => s.frequency !== 'weekly' || s.weekdays !== undefined, { error: 'Un calendrier hebdomadaire donne ses jours (weekdays).' })
  .refine((s) => s.frequency !== 'monthly' || s.dayOfMonth !== undefined, { error: 'Un calendrier mensuel donne son jour (dayOfMonth).' });
export type TaskSchedule = z.infer<typeof taskScheduleSchema>;

const siteListSchema = (what: string) =>
  z.array(uuidSchema, { error: `${what} est une liste d’identifiants.` }).max(1000, { error: `${what} : 1 000 au plus.` });

export const createTaskTemplateRequestSchema = z.strictObject({
  name: nameSchema,
  kind: z.enum(TASK_KINDS, { error: 'Type de tâche inconnu : checklist, cleaning, pest_control, oil ou thermometer.' }),
  /** The sites, and the regions' sites, it covers; both absent or empty: every site. */
  siteIds: siteListSchema('siteIds').optional(),
  regionIds: siteListSchema('regionIds').optional(),
  items: z
    .array(taskItemInputSchema, { error: 'items est une liste de points de contrôle.' })
    .min(1, { error: 'Un modèle a au moins un point de contrôle.' })
    .max(50, { error: '50 points de contrôle au plus.' }),
  schedule: taskScheduleSchema,
  severity: severitySchema.default('warning'),
  /** The organization's: only an admin who sees the whole organization changes it. */
  locked: z.boolean({ error: 'locked doit valoir true ou false.' }).default(false),
});
export type CreateTaskTemplateRequest = z.infer<typeof createTaskTemplateRequestSchema>;
export const updateTaskTemplateRequestSchema = createTaskTemplateRequestSchema;
export type UpdateTaskTemplateRequest = CreateTaskTemplateRequest;

export const taskTemplateSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  kind: z.enum(TASK_KINDS),
  siteIds: z.array(uuidSchema),
  regionIds: z.array(uuidSchema),
  items: z.array(taskItemSchema),
  schedule: z.object({
    frequency: z.enum(TASK_FREQUENCIES),
    times: z.array(z.string()).optional(),
    weekdays: z.array(z.number()).optional(),
    dayOfMonth: z.number().optional(),
    dueAt: isoDateTimeSchema.optional(),
    windowMinutes: z.number(),
    graceMinutes: z.number(),
  }),
  severity: severitySchema,
  locked: z.boolean(),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
});
export type TaskTemplate = z.infer<typeof taskTemplateSchema>;
export const taskTemplateListResponseSchema = z.object({ templates: z.array(taskTemplateSchema) });
export const taskTemplateResponseSchema = z.object({ template: taskTemplateSchema });

export const TASK_STATUSES = ['pending', 'done', 'late', 'missed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const taskAnswerSchema = z.object({
  itemId: uuidSchema,
  label: z.string(),
  type: z.enum(ITEM_TYPES),
  /** A yes/no, a number, a text, a choice's option, or a photo's id. */
  value: z.union([z.boolean(), z.number(), z.string()]).nullable(),
  unit: z.string().optional(),
  conforming: z.boolean(),
});
export type TaskAnswer = z.infer<typeof taskAnswerSchema>;

export const taskSchema = z.object({
  id: uuidSchema,
  templateId: uuidSchema,
  siteId: uuidSchema,
  name: z.string(),
  kind: z.enum(TASK_KINDS),
  severity: severitySchema,
  dueAt: isoDateTimeSchema,
  windowEndsAt: isoDateTimeSchema,
  /** The end of the grace: past it, a task not completed is missed. */
  graceEndsAt: isoDateTimeSchema,
  status: z.enum(TASK_STATUSES),
  result: z.enum(['ok', 'nonconforming']).nullable(),
  completedAt: isoDateTimeSchema.nullable(),
  /** The member who completed it, and their name (kept if the account goes). */
  completedBy: uuidSchema.nullable(),
  completedByName: z.string().nullable(),
  comment: z.string().nullable(),
  /** The checklist as it was when the task fell due. */
  items: z.array(taskItemSchema),
  answers: z.array(taskAnswerSchema).optional(),
  alertId: uuidSchema.nullable(),
});
export type Task = z.infer<typeof taskSchema>;

export const taskListQuerySchema = z.strictObject({
  siteId: uuidSchema.optional(),
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
  status: z.enum(TASK_STATUSES, { error: 'Statut inconnu : pending, done, late ou missed.' }).optional(),
});
export type TaskListQuery = z.infer<typeof taskListQuerySchema>;
export const taskListResponseSchema = z.object({ tasks: z.array(taskSchema) });
export const taskResponseSchema = z.object({ task: taskSchema });

const answerValueSchema = z.union(
  [z.boolean(), z.number(), z.string().max(2000, { error: 'Une réponse compte 2 000 caractères au plus.' })],
  {
    error: 'Une réponse est un booléen, un nombre ou un texte.',
  },
);

export const completeTaskRequestSchema = z.strictObject({
  answers: z
    .array(
      z.strictObject(
        { itemId: uuidSchema, value: answerValueSchema },
        { error: 'Une réponse est attendue sous la forme {itemId, value}.' },
      ),
      {
        error: 'answers est une liste de réponses {itemId, value}.',
      },
    )
    .max(50, { error: '50 réponses au plus.' }),
  comment: text('Le commentaire', 1000).optional(),
  /** When the answers were given, for a phone that was offline; now by default, never in the future. */
  completedAt: isoDateTimeSchema.optional(),
});
export type CompleteTaskRequest = z.infer<typeof completeTaskRequestSchema>;

export const taskPhotoParamsSchema = z.strictObject({ id: uuidSchema, photoId: uuidSchema });
export const taskPhotoResponseSchema = z.object({
  photo: z.object({ id: uuidSchema, sha256: z.string(), size: z.number().int() }),
});
/** A photo's size limit: 5 MiB. */
export const TASK_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

const processTemperatureSchema = z
  .number({ error: 'La température doit être un nombre (°C).' })
  .min(-80, { error: 'La température doit être comprise entre −80 et +300 °C.' })
  .max(300, { error: 'La température doit être comprise entre −80 et +300 °C.' });

export const createProcessRequestSchema = z.strictObject({
  kind: z.enum(PROCESS_KINDS, { error: 'Procédé inconnu : cooling ou hot_holding.' }),
  siteId: uuidSchema,
  product: text('Le produit', 120),
  /** A probe (a sensor of the site) whose readings are the process's. */
  sensorId: uuidSchema.optional(),
  /** Now by default; up to 24 h in the past, never in the future. */
  startedAt: isoDateTimeSchema.optional(),
  /** The first reading. */
  temperature: processTemperatureSchema.optional(),
});
export type CreateProcessRequest = z.infer<typeof createProcessRequestSchema>;

export const processReadingRequestSchema = z.strictObject({
  temperature: processTemperatureSchema,
  at: isoDateTimeSchema.optional(),
});
export type ProcessReadingRequest = z.infer<typeof processReadingRequestSchema>;

export const PROCESS_STATUSES = ['running', 'ok', 'failed'] as const;
export const processSchema = z.object({
  id: uuidSchema,
  kind: z.enum(PROCESS_KINDS),
  siteId: uuidSchema,
  product: z.string(),
  sensorId: uuidSchema.nullable(),
  startedAt: isoDateTimeSchema,
  /** Cooling: when +10 °C must be reached. Hot holding: when the next reading is due. */
  deadline: isoDateTimeSchema,
  readings: z.array(z.object({ temperature: z.number(), at: isoDateTimeSchema })),
  status: z.enum(PROCESS_STATUSES),
  /** Why it failed, in French; null unless failed. */
  failure: z.string().nullable(),
  endedAt: isoDateTimeSchema.nullable(),
  startedBy: uuidSchema.nullable(),
  startedByName: z.string(),
  alertId: uuidSchema.nullable(),
});
export type Process = z.infer<typeof processSchema>;
export const processListQuerySchema = z.strictObject({
  siteId: uuidSchema.optional(),
  status: z.enum(PROCESS_STATUSES, { error: 'Statut inconnu : running, ok ou failed.' }).optional(),
});
export type ProcessListQuery = z.infer<typeof processListQuerySchema>;
export const processResponseSchema = z.object({ process: processSchema });
export const processListResponseSchema = z.object({ processes: z.array(processSchema) });

/** The plan's tasks of a period: due, done in their window, late, missed, answered out of their limits. */
export const taskCountsSchema = z.object({
  due: z.number().int(),
  done: z.number().int(),
  late: z.number().int(),
  missed: z.number().int(),
  nonconforming: z.number().int(),
});
export type TaskCounts = z.infer<typeof taskCountsSchema>;

/** The live stream's `task` events: a task due, completed (done or late) or missed. */
export const taskStreamEventSchema = z.object({ action: z.enum(['created', 'completed', 'missed']), task: taskSchema });
export type TaskStreamEvent = z.infer<typeof taskStreamEventSchema>;
