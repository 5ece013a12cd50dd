import { endpoints } from '@vigie/contract/routes';
import { ClipboardList } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { SEVERITY_LABELS } from '@/features/alerts/alert-format';
import { useRegions } from '@/features/sites/api/get-overview';
import { useSites } from '@/features/sites/api/get-sites';
import { PlanTemplates } from '@/features/tasks/components/template-plan';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { PAGES } from '../navigation/pages';
import { LOAD_ERROR } from '@/lib/fallback-text';

/**
 * /dashboard/plan: « Plan de maîtrise sanitaire » for the quality manager — the templates of the
 * checks people make in the shops (rounds, cleaning, pest control, frying oil, thermometers…), when
 * they fall due and where, edited here or started from the French starter library.
 */
export default function PlanRoute() {
  const can = useCan();
  const sites = useSites();
  const regions = useRegions();
  const title = PAGES.plan.label;
  return (
    <>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <div className="mb-6 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <ClipboardList className="size-7 shrink-0 text-cyan-300" aria-hidden="true" />
          {title}
        </h1>
        <p className="mt-3 text-slate-300">
          Les contrôles que font les équipes des magasins{'\u202F'}: quoi vérifier, quand et où. Vigie en fait les «{'\u202F'}Tâches du jour
          {'\u202F'}» de chaque site couvert, à son heure locale{'\u202F'}; une tâche manquée ou non conforme ouvre une alerte.
        </p>
      </div>
      {can(endpoints.taskTemplates.list) ? (
        <div className="space-y-6">
          {sites.isError && <Alert>{errorMessage(sites.error, LOAD_ERROR)}</Alert>}
          <PlanTemplates sites={sites.data ?? []} regions={regions.data ?? []} severityLabels={SEVERITY_LABELS} />
        </div>
      ) : (
        <p className="text-slate-300">Le plan de maîtrise sanitaire est préparé par les administrateurs et les responsables.</p>
      )}
    </>
  );
}
