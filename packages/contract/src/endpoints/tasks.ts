import { z } from 'zod';
import { errorResponseSchema, idParamsSchema } from '../common.ts';
import {
  completeTaskRequestSchema,
  createProcessRequestSchema,
  createTaskTemplateRequestSchema,
  processListQuerySchema,
  processListResponseSchema,
  processReadingRequestSchema,
  processResponseSchema,
  taskListQuerySchema,
  taskListResponseSchema,
  taskPhotoParamsSchema,
  taskPhotoResponseSchema,
  taskResponseSchema,
  taskTemplateListResponseSchema,
  taskTemplateResponseSchema,
  updateTaskTemplateRequestSchema,
} from '../tasks.ts';
import { endpoint, everyone, managers, onResource, withinSites } from './define.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const tag = 'Plan de maîtrise sanitaire';
const managePlan = managers('gérer le plan de maîtrise sanitaire');
const doTasks = managers('remplir une tâche du plan de maîtrise sanitaire');
const runProcesses = managers('suivre un refroidissement ou un maintien au chaud');

const example = {
  name: 'Ouverture du magasin',
  kind: 'checklist',
  items: [
    { label: 'Température de la chambre froide', type: 'number', unit: '°C', min: 0, max: 4 },
    { label: 'Sols et plans de travail propres', type: 'boolean', expected: true },
  ],
  schedule: { frequency: 'daily', times: ['08:00'], windowMinutes: 60, graceMinutes: 30 },
  severity: 'warning',
};

/** The templates of the plan: what is checked, where and when. */
export const taskTemplates = {
  list: endpoint({
    method: 'GET',
    path: '/api/task-templates',
    summary: 'Liste les modèles de tâches du plan de maîtrise sanitaire qui couvrent les sites que l’on voit.',
    tag,
    access: withinSites(managePlan),
    schema: { response: { 200: taskTemplateListResponseSchema, ...errors } },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/task-templates',
    summary: 'Crée un modèle de tâche : ses points de contrôle, son calendrier dans le fuseau de chaque site, ses sites ou régions.',
    description:
      'Les tâches des prochaines 24 h sont créées aussitôt pour chaque site couvert (`siteIds`, les sites des `regionIds` ; les deux absents ou vides : tous les sites, ceux créés plus tard compris). Un membre qui ne voit que certains sites nomme ses sites (`siteIds`) ; seul un administrateur qui voit toute l’organisation crée un modèle verrouillé (`locked`).',
    tag,
    access: withinSites(managePlan),
    schema: {
      body: createTaskTemplateRequestSchema.meta({ examples: [example] }),
      response: { 201: taskTemplateResponseSchema, ...errors },
    },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/task-templates/:id',
    summary: 'Lit un modèle de tâche.',
    tag,
    access: withinSites(managePlan),
    schema: { params: idParamsSchema, response: { 200: taskTemplateResponseSchema, ...errors } },
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/task-templates/:id',
    summary: 'Modifie un modèle de tâche ; les tâches à venir suivent, celles déjà échues gardent ce qu’elles étaient.',
    tag,
    access: withinSites(managePlan),
    schema: { params: idParamsSchema, body: updateTaskTemplateRequestSchema, response: { 200: taskTemplateResponseSchema, ...errors } },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/task-templates/:id',
    summary: 'Supprime un modèle de tâche et ses tâches à venir ; celles déjà échues restent au registre.',
    tag,
    access: withinSites(managePlan),
    schema: { params: idParamsSchema, response: { 204: z.null(), ...errors } },
  }),
};

/** The tasks due in the sites one sees, and their completion. */
export const tasks = {
  list: endpoint({
    method: 'GET',
    path: '/api/tasks',
    summary: 'Liste les tâches des sites que l’on voit, par échéance (filtres : siteId, from, to, status).',
    tag,
    access: withinSites(everyone),
    schema: { querystring: taskListQuerySchema, response: { 200: taskListResponseSchema, ...errors } },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/tasks/:id',
    summary: 'Lit une tâche, avec ses réponses.',
    tag,
    access: onResource(everyone, 'task'),
    schema: { params: idParamsSchema, response: { 200: taskResponseSchema, ...errors } },
  }),
  complete: endpoint({
    method: 'POST',
    path: '/api/tasks/:id/complete',
    summary: 'Remplit une tâche : une réponse par point de contrôle, un commentaire au besoin.',
    description:
      'Possible de l’échéance (`dueAt`) à la fin du délai de grâce (`graceEndsAt`) : avant la fin de la fenêtre la tâche est `done`, après `late` ; avant l’échéance ou après la grâce, 409. Une seconde fois, 409. Une réponse hors des limites d’un nombre, contraire à la réponse attendue d’un oui/non ou parmi les options non conformes d’un choix rend la tâche non conforme (`result: "nonconforming"`).',
    tag,
    access: onResource(doTasks, 'task'),
    schema: {
      params: idParamsSchema,
      body: completeTaskRequestSchema.meta({
        examples: [{ answers: [{ itemId: '3f0c8f2e-8f6a-4d7e-9a3b-2c1d0e9f8a7b', value: 3.5 }], comment: 'RAS' }],
      }),
      response: { 200: taskResponseSchema, ...errors },
    },
  }),
  uploadPhoto: endpoint({
    method: 'POST',
    path: '/api/tasks/:id/photos',
    summary: 'Joint une photo à une tâche (multipart, champ « file » : JPEG, PNG ou WebP, 5 Mo au plus).',
    description:
      'Le type est lu dans les octets, pas dans le nom ni l’en-tête. La réponse donne l’identifiant de la photo, à nommer comme réponse d’un point « photo », et son empreinte SHA-256.',
    tag,
    access: onResource(doTasks, 'task'),
    schema: {
      params: idParamsSchema,
      response: { 201: taskPhotoResponseSchema, 413: errorResponseSchema, 415: errorResponseSchema, ...errors },
    },
  }),
  photo: endpoint({
    method: 'GET',
    path: '/api/tasks/:id/photos/:photoId',
    summary: 'Télécharge une photo d’une tâche, telle qu’elle a été prise.',
    tag,
    access: onResource(everyone, 'task', 'Photo introuvable.'),
    schema: { params: taskPhotoParamsSchema },
    produces: ['image/jpeg', 'image/png', 'image/webp'],
  }),
};

/** Timed processes: cooling of cooked food and hot holding. */
export const processes = {
  list: endpoint({
    method: 'GET',
    path: '/api/processes',
    summary: 'Liste les refroidissements et maintiens au chaud des sites que l’on voit, du plus récent au plus ancien.',
    tag,
    access: withinSites(everyone),
    schema: { querystring: processListQuerySchema, response: { 200: processListResponseSchema, ...errors } },
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/processes',
    summary: 'Démarre un refroidissement rapide (de +63 °C à +10 °C en 2 h) ou un maintien au chaud (+63 °C ou plus).',
    description:
      '`startedAt` vaut maintenant par défaut, jusqu’à 24 h en arrière, jamais dans le futur ; `temperature` est la première lecture. Avec `sensorId` (une sonde de la cellule), les lectures du capteur sont celles du procédé.',
    tag,
    access: withinSites(runProcesses),
    schema: {
      body: createProcessRequestSchema.meta({
        examples: [{ kind: 'cooling', siteId: '3f0c8f2e-8f6a-4d7e-9a3b-2c1d0e9f8a7b', product: 'Blanquette de veau', temperature: 72 }],
      }),
      response: { 201: processResponseSchema, ...errors },
    },
  }),
  addReading: endpoint({
    method: 'POST',
    path: '/api/processes/:id/readings',
    summary: 'Note une température du produit pendant le procédé.',
    tag,
    access: onResource(runProcesses, 'process'),
    schema: { params: idParamsSchema, body: processReadingRequestSchema, response: { 201: processResponseSchema, ...errors } },
  }),
  end: endpoint({
    method: 'POST',
    path: '/api/processes/:id/end',
    summary: 'Termine un maintien au chaud (conforme s’il l’était jusque-là).',
    tag,
    access: onResource(runProcesses, 'process'),
    schema: { params: idParamsSchema, response: { 200: processResponseSchema, ...errors } },
  }),
};

export const taskEndpoints = { taskTemplates, tasks, processes };
