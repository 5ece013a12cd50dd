import { endpoints } from '@vigie/contract/routes';
import { useQueryClient } from '@tanstack/react-query';
import { LoaderCircle } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { alertKeys } from '@/features/alerts/alert-keys';
import { PauseControl } from '@/features/alerts/components/pause-control';
import { RuleEditor } from '@/features/alerts/components/rule-editor';
import { RuleTemplates } from '@/features/alerts/components/rule-templates';
import { deviceDetailPath } from '@/features/devices/device-paths';
import { WatchList } from '@/features/insights/components/watch-list';
import { OnCallEditor } from '@/features/on-call/components/on-call-editor';
import { useRegions } from '@/features/sites/api/get-overview';
import { useSites } from '@/features/sites/api/get-sites';
import { NewSiteForm } from '@/features/sites/components/new-site-form';
import { RegionsSection } from '@/features/sites/components/regions-section';
import { SiteEditor } from '@/features/sites/components/site-editor';
import { useOwner } from '@/lib/auth';
import { useCameFromHere } from '@/lib/came-from';
import { errorMessage } from '@/lib/errors';
import { useCan, usePermissions } from '@/lib/permissions';
import { PAGES } from '../navigation/pages';
import { LOAD_ERROR } from '@/lib/fallback-text';

/**
 * /dashboard/sites: the organization's rule templates first (they lay rules in the shops), its
 * regions, then the shops: a pause of the whole shop, their hours (which rule schedules follow),
 * the rules of each, and who is on call for it.
 */
export default function SitesRoute() {
  const sites = useSites();
  const regions = useRegions();
  const { manage } = usePermissions();
  // A manager who sees some shops only may not create one: the button is not offered.
  const mayCreate = useCan()(endpoints.sites.create);
  const cameFromHere = useCameFromHere(PAGES.sites.label);
  const queryClient = useQueryClient();
  const owner = useOwner();
  // A template aimed at a region lays its rule in the shops that join it and lifts it from those that
  // leave (a shop moved, a region deleted): the templates and the shops' rules are read again.
  const refreshRules = () => {
    void queryClient.invalidateQueries({ queryKey: alertKeys.templates(owner) });
    void queryClient.invalidateQueries({ queryKey: alertKeys.allRules(owner) });
  };
  return (
    <>
      <title>{`Magasins · ${PRODUCT_NAME}`}</title>
      <h1 className="mb-2 text-3xl font-bold tracking-tight text-white">Magasins</h1>
      <p className="mb-6 text-slate-300">Vos magasins, leurs horaires d’ouverture et les règles qui surveillent tous leurs capteurs.</p>
      <div className="mb-8">
        <RuleTemplates sites={sites.data ?? []} regions={regions.data ?? []} />
      </div>
      <RegionsSection onChanged={refreshRules} className="mb-8" />
      {manage && mayCreate && (
        <div className="mb-8">
          <NewSiteForm />
        </div>
      )}
      {sites.isError ? (
        <Alert>{errorMessage(sites.error, LOAD_ERROR)}</Alert>
      ) : !sites.data ? (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement des sites…
        </p>
      ) : (
        <div className="space-y-6">
          {sites.data.map((site) => (
            <SiteEditor
              key={site.id}
              site={site}
              regions={regions.data ?? []}
              status={<PauseControl site={site} timeZone={site.timezone} headingLevel={3} />}
              onSaved={refreshRules}
            >
              <WatchList
                siteId={site.id}
                sensorPath={(id) => deviceDetailPath('sensor', id)}
                linkState={cameFromHere}
                timeZoneOf={() => site.timezone}
                showSite={false}
                headingLevel={3}
                className="border-t border-white/10 pt-4"
              />
              <RuleEditor target={{ siteId: site.id }} />
              <OnCallEditor siteId={site.id} />
            </SiteEditor>
          ))}
        </div>
      )}
    </>
  );
}
