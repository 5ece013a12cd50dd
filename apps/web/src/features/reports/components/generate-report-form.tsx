import type { Site } from '@vigie/contract';
import { FilePlus2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useCreateReport } from '../api/report-mutations';
import { currentMonth, formatReportMonth } from '../report-format';
import { FieldLabel } from '@/components/ui/field-label';

const MONTH_PATTERN = /^\d{4}-(?:0[1-9]|1[0-2])$/;

/**
 * « Générer un rapport »: a site and a month (the current one by default), made from the data as
 * it stands. A new report for a month already reported adds a version; the others stay.
 */
export function GenerateReportForm({ sites, defaultSiteId }: { sites: Site[]; defaultSiteId: string | null }) {
  const create = useCreateReport();
  const [chosenSite, setChosenSite] = useState<string | null>(null);
  const [month, setMonth] = useState(() => currentMonth());
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const siteFieldId = useId();
  const monthFieldId = useId();
  const hintId = useId();
  const statusId = useId();
  const titleId = useId();
  // The site picked here, else the one the page shows, else the first.
  const siteId = [chosenSite, defaultSiteId, sites[0]?.id].find((id) => id && sites.some((site) => site.id === id)) ?? '';
  const thisMonth = currentMonth();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (!siteId) return setError('Choisissez un site.');
    if (!MONTH_PATTERN.test(month)) return setError('Choisissez un mois, par exemple « 2026-11 ».');
    if (month > thisMonth) return setError('Ce mois n’a pas encore commencé\u202F: choisissez le mois en cours ou un mois passé.');
    setError(null);
    const site = sites.find((item) => item.id === siteId);
    create.mutate(
      { siteId, month },
      {
        onSuccess: (report) =>
          setDone(`Rapport de ${formatReportMonth(report.month)} établi pour ${site?.name ?? report.summary.siteName}.`),
        onError: (failure) => setError(errorMessage(failure, 'Le rapport n’a pas été établi.')),
      },
    );
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={titleId}
      className="space-y-3 rounded-2xl border border-white/10 bg-slate-900/60 p-4 shadow-lg shadow-black/20 backdrop-blur sm:p-5"
    >
      <h2 id={titleId} className="text-lg font-semibold text-white">
        Générer un rapport
      </h2>
      <p id={hintId} className="text-sm text-slate-300">
        Établi à partir des relevés enregistrés à cet instant. Pour le mois en cours, la période s’arrête maintenant.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="space-y-1.5 sm:min-w-56 sm:flex-1">
          <FieldLabel htmlFor={siteFieldId}>Site du rapport</FieldLabel>
          <select
            id={siteFieldId}
            value={siteId}
            onChange={(event) => setChosenSite(event.target.value)}
            disabled={sites.length === 0}
            className={inputClass}
          >
            {sites.length === 0 && <option value="">Chargement des sites…</option>}
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1.5">
          <FieldLabel htmlFor={monthFieldId}>Mois</FieldLabel>
          <input
            id={monthFieldId}
            type="month"
            value={month}
            max={thisMonth}
            // Where the browser has no month picker, the field is plain text: say the format.
            placeholder="AAAA-MM"
            pattern="\d{4}-\d{2}"
            required
            onChange={(event) => setMonth(event.target.value)}
            aria-invalid={Boolean(error) || undefined}
            aria-describedby={`${hintId} ${statusId}`}
            className={`${inputClass} sm:w-48`}
          />
        </div>
        <Button type="submit" variant="primary" busy={create.isPending} icon={<FilePlus2 className="size-4" aria-hidden="true" />}>
          {create.isPending ? 'Génération…' : 'Générer le rapport'}
        </Button>
      </div>
      <FormStatus id={statusId} error={error} success={create.isPending ? 'Génération du rapport en cours…' : done} />
    </form>
  );
}
