import { FileCheck2 } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { ConsolidatedReportForm } from '@/features/reports/components/consolidated-report-form';
import { GenerateReportForm } from '@/features/reports/components/generate-report-form';
import { ReportList } from '@/features/reports/components/report-list';
import { useRegions } from '@/features/sites/api/get-overview';
import { useSites } from '@/features/sites/api/get-sites';
import { endpoints } from '@vigie/contract/routes';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** /dashboard/rapports: the monthly HACCP compliance reports of each site, made, read, downloaded and signed. */
export default function ReportsRoute() {
  const sites = useSites();
  // The regions of the shops one sees (the server narrows the list): the consolidated report's scopes.
  const regions = useRegions();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  // The site shown is in the address (?site=…), so that a link or a reload keeps it.
  const siteId = params.get('site');
  // Not while the user is still loading: the form shows only once the role is known.
  const canManage = useCan()(endpoints.reports.create);
  const who = (userId: string | null) => (!userId ? null : userId === user?.id ? user.name?.trim() || user.email : 'un membre de l’équipe');
  const onSiteChange = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('site', id);
        else next.delete('site');
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <title>{`Rapports · ${PRODUCT_NAME}`}</title>
      <div className="mb-6 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <FileCheck2 className="size-7 text-cyan-300" aria-hidden="true" />
          Rapports
        </h1>
        <p className="mt-3 text-slate-300">
          Les rapports mensuels de conformité HACCP de vos magasins{'\u00A0'}: températures tenues, excursions, actions menées. Un rapport
          établi ne change plus{'\u00A0'}; sa signature atteste qu’il a été relu.
        </p>
      </div>
      <div className="space-y-8">
        {sites.isError && <Alert>{errorMessage(sites.error, LOAD_ERROR)}</Alert>}
        {canManage ? (
          <GenerateReportForm sites={sites.data ?? []} defaultSiteId={siteId} />
        ) : (
          <p className="rounded-2xl border border-white/10 bg-slate-900/60 p-4 text-sm text-slate-300">
            Vous consultez les rapports en lecture seule{'\u00A0'}: seuls les administrateurs et les responsables les génèrent et les
            signent.
          </p>
        )}
        {/* A chain: one PDF for every shop seen, or for one region. */}
        {(sites.data?.length ?? 0) > 1 && <ConsolidatedReportForm regions={regions.data ?? []} />}
        <ReportList sites={sites.data ?? []} siteId={siteId} onSiteChange={onSiteChange} canManage={canManage} who={who} />
      </div>
    </>
  );
}
