import { endpoints, TASK_PHOTO_MAX_BYTES } from '@vigie/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, badRequest } from '../../errors.ts';
import { currentUser } from '../../plugins/authenticate.ts';
import { route } from '../../plugins/endpoint-route.ts';
import { siteInScope, sitesOf } from '../../plugins/scope.ts';
import type { ProcessService } from './process-service.ts';
import type { TaskService } from './task-service.ts';
import { type Editor, type TemplateService, toTemplate } from './template-service.ts';

/** A photo and the multipart envelope around it. */
const PHOTO_BODY_LIMIT = TASK_PHOTO_MAX_BYTES + 64 * 1024;

const author = (request: FastifyRequest) => {
  const user = currentUser(request);
  return { id: user.id, name: user.name ?? user.email };
};

async function editorOf(request: FastifyRequest): Promise<Editor> {
  return { role: currentUser(request).role, sites: await sitesOf(request) };
}

async function visibleSites(request: FastifyRequest): Promise<string[] | null> {
  const sites = await sitesOf(request);
  return sites === null ? null : [...sites];
}

/** The `file` field of a multipart body: a photo's bytes, or a French 400. */
async function photoOf(request: FastifyRequest): Promise<Buffer> {
  const type = String(request.headers['content-type'] ?? '');
  if (!Buffer.isBuffer(request.body) || !type.startsWith('multipart/form-data'))
    throw new AppError(415, 'Envoyez la photo en multipart/form-data, dans le champ « file ».');
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(request.body), { headers: { 'content-type': type } }).formData();
  } catch {
    throw badRequest('Corps multipart illisible : envoyez la photo dans le champ « file ».');
  }
  const file = form.get('file');
  if (!file || typeof file === 'string') throw badRequest('Aucune photo dans le champ « file ».');
  return Buffer.from(await file.arrayBuffer());
}

/** docs/api.md, Plan de maîtrise sanitaire: templates, tasks and their photos, timed processes. */
export const taskRoutes: FastifyPluginAsyncZod<{ templates: TemplateService; tasks: TaskService; processes: ProcessService }> = async (
  app,
  { templates, tasks, processes },
) => {
  // Photos come as multipart; kept as bytes here and read by the route (Node's own FormData parser).
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: PHOTO_BODY_LIMIT }, (_request, body, done) =>
    done(null, body),
  );

  app.route({
    ...route(endpoints.taskTemplates.list),
    handler: async (request) => ({ templates: await templates.list(currentUser(request).organization.id, await editorOf(request)) }),
  });

  app.route({
    ...route(endpoints.taskTemplates.create),
    handler: async (request, reply) => {
      const record = await templates.create(currentUser(request).organization.id, await editorOf(request), request.body);
      await tasks.scheduled(record);
      await request.audit('task_template.created', { type: 'task_template', id: record.id, name: record.name });
      return reply.code(201).send({ template: toTemplate(record) });
    },
  });

  app.route({
    ...route(endpoints.taskTemplates.get),
    handler: async (request) => ({
      template: toTemplate(await templates.get(currentUser(request).organization.id, await editorOf(request), request.params.id)),
    }),
  });

  app.route({
    ...route(endpoints.taskTemplates.update),
    handler: async (request) => {
      const record = await templates.update(currentUser(request).organization.id, await editorOf(request), request.params.id, request.body);
      await tasks.scheduled(record);
      await request.audit('task_template.updated', { type: 'task_template', id: record.id, name: record.name });
      return { template: toTemplate(record) };
    },
  });

  app.route({
    ...route(endpoints.taskTemplates.remove),
    handler: async (request, reply) => {
      const record = await templates.remove(currentUser(request).organization.id, await editorOf(request), request.params.id);
      await request.audit('task_template.deleted', { type: 'task_template', id: record.id, name: record.name });
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...route(endpoints.tasks.list),
    handler: async (request) => ({
      tasks: await tasks.list(currentUser(request).organization.id, await visibleSites(request), request.query),
    }),
  });

  app.route({
    ...route(endpoints.tasks.get),
    handler: async (request) => ({ task: await tasks.get(currentUser(request).organization.id, request.params.id) }),
  });

  app.route({
    ...route(endpoints.tasks.complete),
    handler: async (request) => {
      const task = await tasks.complete(currentUser(request).organization.id, author(request), request.params.id, request.body);
      await request.audit(
        'task.completed',
        { type: 'task', id: task.id, name: task.name },
        { status: task.status, result: task.result, dueAt: task.dueAt },
      );
      return { task };
    },
  });

  app.route({
    ...route(endpoints.tasks.uploadPhoto),
    bodyLimit: PHOTO_BODY_LIMIT,
    handler: async (request, reply) => {
      const organizationId = currentUser(request).organization.id;
      // Another organization's task is a 404 whatever was sent.
      await tasks.get(organizationId, request.params.id);
      const photo = await tasks.addPhoto(organizationId, currentUser(request).id, request.params.id, await photoOf(request));
      return reply.code(201).send({ photo });
    },
  });

  app.route({
    ...route(endpoints.tasks.photo),
    handler: async (request, reply) => {
      const photo = await tasks.photo(currentUser(request).organization.id, request.params.id, request.params.photoId);
      return reply
        .type(photo.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .header('cache-control', 'private, no-store')
        .send(photo.content);
    },
  });

  app.route({
    ...route(endpoints.processes.list),
    handler: async (request) => ({
      processes: await processes.list(currentUser(request).organization.id, await visibleSites(request), request.query),
    }),
  });

  app.route({
    ...route(endpoints.processes.create),
    handler: async (request, reply) => {
      await siteInScope(request, request.body.siteId);
      const process = await processes.create(currentUser(request).organization.id, author(request), request.body);
      await request.audit('process.started', { type: 'process', id: process.id, name: process.product }, { kind: process.kind });
      return reply.code(201).send({ process });
    },
  });

  app.route({
    ...route(endpoints.processes.addReading),
    handler: async (request, reply) => {
      const process = await processes.addReading(currentUser(request).organization.id, request.params.id, request.body);
      return reply.code(201).send({ process });
    },
  });

  app.route({
    ...route(endpoints.processes.end),
    handler: async (request) => {
      const process = await processes.end(currentUser(request).organization.id, request.params.id);
      await request.audit('process.ended', { type: 'process', id: process.id, name: process.product }, { status: process.status });
      return { process };
    },
  });
};
