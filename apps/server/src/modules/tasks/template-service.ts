import { randomUUID } from 'node:crypto';
import type { CreateTaskTemplateRequest, Role, Site, TaskItem, TaskItemInput, TaskTemplate } from '@vigie/contract';
import { badRequest, forbidden, notFound } from '../../errors.ts';
import type { TaskDal, TemplateRecord } from './task-dal.ts';

export const TEMPLATE_NOT_FOUND = 'Modèle de tâche introuvable.';
const LOCKED = 'Seul un administrateur qui voit toute l’organisation peut modifier un modèle verrouillé.';
const OUTSIDE = 'Seul un membre qui voit toute l’organisation peut modifier un modèle qui couvre d’autres sites que les siens.';

/** Who asks: their role and the sites they see (`null`: the whole organization). */
export interface Editor {
  role: Role;
  sites: ReadonlySet<string> | null;
}

export function toTemplate(record: TemplateRecord): TaskTemplate {
  return {
    id: record.id,
    name: record.name,
    kind: record.kind,
    siteIds: record.siteIds,
    regionIds: record.regionIds,
    items: record.items,
    schedule: record.schedule,
    severity: record.severity,
    locked: record.locked,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

/** What a request sets of a template, on creation and on every edit alike. */
function fieldsOf(input: CreateTaskTemplateRequest) {
  return {
    name: input.name,
    kind: input.kind,
    siteIds: [...new Set(input.siteIds ?? [])],
    regionIds: [...new Set(input.regionIds ?? [])],
    items: withIds(input.items),
    schedule: input.schedule,
    severity: input.severity,
    locked: input.locked,
  };
}

/** Item ids kept when given (an edited template), made when left out; two items never share one. */
function withIds(items: readonly TaskItemInput[]): TaskItem[] {
  const seen = new Set<string>();
  return items.map((item) => {
    const id = item.id ?? randomUUID();
    if (seen.has(id)) throw badRequest('Deux points de contrôle portent le même identifiant.');
    seen.add(id);
    const { required = true, ...rest } = item;
    return { ...rest, id, required };
  });
}

/**
 * The plan's templates (docs/api.md, Plan de maîtrise sanitaire): who may see and change which, and
 * the sites each covers. A member who sees some sites only works with templates of their sites.
 */
export function createTemplateService(deps: {
  dal: TaskDal;
  now: () => Date;
  /** The organization's sites, with their region and time zone. */
  sites: (organizationId: string) => Promise<Site[]>;
  regionIds: (organizationId: string) => Promise<string[]>;
}) {
  /** The sites a template covers now: those it names, those of its regions; none named, all of them. */
  async function covered(organizationId: string, template: Pick<TemplateRecord, 'siteIds' | 'regionIds'>): Promise<Site[]> {
    const all = await deps.sites(organizationId);
    if (template.siteIds.length === 0 && template.regionIds.length === 0) return all;
    const siteIds = new Set(template.siteIds);
    const regionIds = new Set(template.regionIds);
    return all.filter((site) => siteIds.has(site.id) || (site.regionId !== null && regionIds.has(site.regionId)));
  }

  /** Refuses names of sites or regions that are not the organization's, and what the editor may not aim at. */
  async function checkTarget(organizationId: string, editor: Editor, input: CreateTaskTemplateRequest): Promise<void> {
    const siteIds = input.siteIds ?? [];
    const regionIds = input.regionIds ?? [];
    const known = new Set((await deps.sites(organizationId)).map((site) => site.id));
    if (siteIds.some((id) => !known.has(id))) throw badRequest('Le modèle nomme un site qui n’est pas celui de l’organisation.');
    const regions = new Set(await deps.regionIds(organizationId));
    if (regionIds.some((id) => !regions.has(id))) throw badRequest('Le modèle nomme une région qui n’est pas celle de l’organisation.');
    if (input.locked && !(editor.role === 'admin' && editor.sites === null)) throw forbidden(LOCKED);
    if (editor.sites !== null) {
      const mine = editor.sites;
      if (regionIds.length > 0 || siteIds.length === 0 || siteIds.some((id) => !mine.has(id)))
        throw forbidden('Un membre qui ne voit que certains sites crée les modèles de ses sites : nommez-les (siteIds).');
    }
  }

  /** A template the editor sees: one that covers at least one of their sites. */
  async function visible(organizationId: string, editor: Editor, record: TemplateRecord | undefined): Promise<TemplateRecord> {
    if (!record) throw notFound(TEMPLATE_NOT_FOUND);
    if (editor.sites === null) return record;
    const mine = editor.sites;
    if (!(await covered(organizationId, record)).some((site) => mine.has(site.id))) throw notFound(TEMPLATE_NOT_FOUND);
    return record;
  }

  /** A template the editor may change: not locked (but for a whole-organization admin), and of their sites only. */
  async function changeable(organizationId: string, editor: Editor, id: string): Promise<TemplateRecord> {
    const record = await visible(organizationId, editor, await deps.dal.findTemplate(organizationId, id));
    if (record.locked && !(editor.role === 'admin' && editor.sites === null)) throw forbidden(LOCKED);
    if (editor.sites !== null) {
      const mine = editor.sites;
      const named = record.siteIds.length > 0 && record.regionIds.length === 0;
      if (!named || record.siteIds.some((siteId) => !mine.has(siteId))) throw forbidden(OUTSIDE);
    }
    return record;
  }

  return {
    covered,

    async list(organizationId: string, editor: Editor): Promise<TaskTemplate[]> {
      const records = await deps.dal.templates(organizationId);
      if (editor.sites === null) return records.map(toTemplate);
      const mine = editor.sites;
      const kept: TemplateRecord[] = [];
      for (const record of records) if ((await covered(organizationId, record)).some((site) => mine.has(site.id))) kept.push(record);
      return kept.map(toTemplate);
    },

    async get(organizationId: string, editor: Editor, id: string): Promise<TemplateRecord> {
      return visible(organizationId, editor, await deps.dal.findTemplate(organizationId, id));
    },

    async create(organizationId: string, editor: Editor, input: CreateTaskTemplateRequest): Promise<TemplateRecord> {
      await checkTarget(organizationId, editor, input);
      const now = deps.now();
      return deps.dal.createTemplate({
        organizationId,
        ...fieldsOf(input),
        // Nothing made yet: its tasks are made from now on (the server's clock, as the tasks' times).
        generatedUntil: now,
        createdAt: now,
        updatedAt: now,
      });
    },

    async update(organizationId: string, editor: Editor, id: string, input: CreateTaskTemplateRequest): Promise<TemplateRecord> {
      const before = await changeable(organizationId, editor, id);
      await checkTarget(organizationId, editor, input);
      const now = deps.now();
      const updated = await deps.dal.updateTemplate(organizationId, id, {
        ...fieldsOf(input),
        // Its tasks not yet due are made again from the new version.
        generatedUntil: now < before.generatedUntil ? now : before.generatedUntil,
        updatedAt: now,
      });
      if (!updated) throw notFound(TEMPLATE_NOT_FOUND);
      await deps.dal.dropUpcoming(id, now);
      return updated;
    },

    async remove(organizationId: string, editor: Editor, id: string): Promise<TemplateRecord> {
      const record = await changeable(organizationId, editor, id);
      if (!(await deps.dal.deleteTemplate(organizationId, id, deps.now()))) throw notFound(TEMPLATE_NOT_FOUND);
      return record;
    },
  };
}

export type TemplateService = ReturnType<typeof createTemplateService>;
