import { PROCESS_KIND_LABELS, type Site } from '@vigie/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { EventHub } from '../events/event-hub.ts';
import { createProcessDal } from './process-dal.ts';
import { createProcessService, type OpenProcessAlert } from './process-service.ts';
import { createTaskDal } from './task-dal.ts';
import { taskRoutes } from './task-routes.ts';
import { createTaskService, type OpenTaskAlert } from './task-service.ts';
import { createTemplateService } from './template-service.ts';

/**
 * The tasks module: the shop's food-safety plan (docs/api.md, Plan de maîtrise sanitaire) — its
 * templates, the tasks they make in each site, their answers and photos — and the timed processes
 * (cooling, hot holding); it keeps `task_templates`, `tasks`, `task_photos` and `processes`.
 * In: the sites (their time zones and regions), the site of a sensor, and the alerts module's
 * opening of an alert for a task or a process (called at run time). Out: the services, the
 * routes, and the clock (`jobs.clock`, every 15 s on every instance).
 */
export function createTasksModule(options: {
  db: Database;
  now: () => Date;
  events: Pick<EventHub, 'publish'>;
  sites: {
    list(organizationId: string): Promise<Site[]>;
    get(organizationId: string, id: string): Promise<Site>;
  };
  regionIds: (organizationId: string) => Promise<string[]>;
  sensorSite: (organizationId: string, sensorId: string) => Promise<string | undefined>;
  openTaskAlert: OpenTaskAlert;
  openProcessAlert: OpenProcessAlert;
  /** Whether a signed report of the site covers this instant (the reports module's, called at run time). */
  signed: (siteId: string, at: Date) => Promise<boolean>;
}) {
  const dal = createTaskDal(options.db);
  const processDal = createProcessDal(options.db);
  const templates = createTemplateService({ dal, now: options.now, sites: (o) => options.sites.list(o), regionIds: options.regionIds });
  const tasks = createTaskService({
    dal,
    now: options.now,
    templates,
    openAlert: options.openTaskAlert,
    signed: options.signed,
    announce: (organizationId, action, task) => options.events.publish([{ organizationId, type: 'task', data: { action, task } }]),
  });
  const processes = createProcessService({
    dal: processDal,
    now: options.now,
    siteZone: async (organizationId, siteId) => (await options.sites.get(organizationId, siteId)).timezone,
    sensorSite: options.sensorSite,
    openAlert: options.openProcessAlert,
    signed: options.signed,
  });
  const routes: FastifyPluginAsync = async (app) => {
    await app.register(taskRoutes, { templates, tasks, processes });
  };
  /** What a task's or a process's alert is about, as its messages name it. */
  async function subjectOf(alert: {
    organizationId: string;
    taskId?: string | null;
    processId?: string | null;
  }): Promise<{ name: string; what: string } | undefined> {
    if (alert.taskId) {
      const task = await dal.find(alert.organizationId, alert.taskId);
      return task && { name: task.name, what: task.status === 'missed' ? 'Tâche manquée' : 'Réponse non conforme' };
    }
    if (alert.processId) {
      const process = await processDal.find(alert.organizationId, alert.processId);
      return process && { name: `${PROCESS_KIND_LABELS[process.kind]} – ${process.product}`, what: 'Procédé en échec' };
    }
    return undefined;
  }
  return {
    templates,
    tasks,
    processes,
    subjectOf,
    routes,
    handlers: {
      /** Readings stored (the telemetry module's flow): a probe's feed the processes it follows. */
      readingsStored: (readings: Parameters<typeof processes.readingsStored>[0]) => processes.readingsStored(readings),
    },
    jobs: {
      /** Makes the next tasks, turns the overdue ones missed and fails the processes past their deadline. */
      async clock(): Promise<void> {
        await tasks.tick();
        await processes.tick();
      },
    },
    services: { tasks: { templates, tasks, processes } },
    async close(): Promise<void> {},
  };
}

export type TasksModule = ReturnType<typeof createTasksModule>;
