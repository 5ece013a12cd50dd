import { Download, LoaderCircle, ScrollText } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { DetailSection } from '@/components/ui/section';
import { showToast } from '@/components/ui/toast';
import { PRODUCT_NAME } from '@/config/constants';
import { useDebounced } from '@/hooks/use-debounced';
import { type AuditFilters, exportAudit, NO_FILTERS, useAuditTrail } from '@/features/audit/api/get-audit';
import { AuditFiltersForm } from '@/features/audit/components/audit-filters';
import { AuditList } from '@/features/audit/components/audit-list';
import { useMembers } from '@/features/team/api/get-members';
import { errorMessage } from '@/lib/errors';
import { usePermissions } from '@/lib/permissions';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** /dashboard/journal: the audit trail (who did what and when), for admins; filtered, paged, exported as CSV. */
export default function JournalRoute() {
  const { readAudit } = usePermissions();
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  // Typing in the search box asks the server once the typing settles, not at every key.
  const q = useDebounced(filters.q, 300);
  const applied = useMemo(() => ({ ...filters, q }), [filters, q]);
  const filtered = Object.values(applied).some((value) => value.trim() !== '');
  const trail = useAuditTrail(applied);
  const members = useMembers();
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const events = trail.data?.pages.flatMap((page) => page.events) ?? [];

  const onExport = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const name = await exportAudit(applied);
      showToast({ message: `Journal exporté\u202F: ${name}` });
    } catch (failure) {
      setExportError(errorMessage(failure, 'L’export du journal a échoué.'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <title>{`Journal · ${PRODUCT_NAME}`}</title>
      <div className="mb-8 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <ScrollText className="size-7 text-cyan-300" aria-hidden="true" />
          Journal
        </h1>
        <p className="mt-3 text-slate-300">
          Qui a fait quoi, et quand{'\u202F'}: appareils, règles, alertes, sites, rapports, équipe et connexions. Chaque ligne est écrite au
          moment de l’action et ne peut plus être modifiée ni effacée, même quand la personne ou l’appareil n’existe plus.
        </p>
      </div>

      {!readAudit ? (
        <Alert>Seul un administrateur peut consulter le journal.</Alert>
      ) : (
        <DetailSection
          id="journal-title"
          title="Actions"
          description="Les plus récentes d’abord, à l’heure de ce navigateur."
          actions={
            <Button
              variant="secondary"
              size="sm"
              busy={exporting}
              icon={<Download className="size-4" aria-hidden="true" />}
              onClick={() => void onExport()}
            >
              Exporter en CSV
            </Button>
          }
        >
          <div className="space-y-5">
            <AuditFiltersForm filters={filters} onChange={setFilters} members={members.data ?? []} />
            {exportError && <Alert onDismiss={() => setExportError(null)}>{exportError}</Alert>}
            {trail.isError ? (
              <Alert>{errorMessage(trail.error, LOAD_ERROR)}</Alert>
            ) : !trail.data ? (
              <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
                <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
                Chargement du journal…
              </p>
            ) : events.length === 0 ? (
              <p role="status" className="text-sm text-slate-300">
                {filtered ? 'Aucune action ne correspond à ces filtres.' : 'Le journal est vide.'}
              </p>
            ) : (
              <>
                <AuditList events={events} />
                {trail.hasNextPage && (
                  <Button busy={trail.isFetchingNextPage} onClick={() => void trail.fetchNextPage()}>
                    Voir plus
                  </Button>
                )}
              </>
            )}
          </div>
        </DetailSection>
      )}
    </>
  );
}
