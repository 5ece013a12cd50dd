import { FileDown } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useDownloadConsolidatedReport } from '../api/download-report';
import { currentMonth, formatReportMonth, recentMonths } from '../report-format';
import { FieldLabel } from '@/components/ui/field-label';

/**
 * « Rapport consolidé »: the PDF of a month for every shop the person sees, or for one of their
 * regions. The months offered are the current one and the twelve finished before it; the last
 * finished month is chosen at first (the one whose reports are complete).
 */
export function ConsolidatedReportForm({ regions }: { regions: readonly { id: string; name: string }[] }) {
  const download = useDownloadConsolidatedReport();
  const [months] = useState(() => recentMonths(currentMonth()));
  const [month, setMonth] = useState(() => months[1] ?? months[0] ?? '');
  const [chosenRegion, setChosenRegion] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const titleId = useId();
  const hintId = useId();
  const monthFieldId = useId();
  const scopeFieldId = useId();
  const statusId = useId();
  // A region no longer in the list (removed meanwhile): every shop again.
  const regionId = regions.some((region) => region.id === chosenRegion) ? chosenRegion : '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setDone(null);
    download.mutate(
      { month, regionId: regionId || null },
      {
        onSuccess: (name) => setDone(`Fichier téléchargé\u202F: ${name}`),
        onError: (failure) => setError(errorMessage(failure, 'Le rapport consolidé n’a pas pu être téléchargé.')),
      },
    );
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={titleId}
      aria-describedby={hintId}
      className="space-y-3 rounded-2xl border border-white/10 bg-slate-900/60 p-4 shadow-lg shadow-black/20 backdrop-blur sm:p-5"
    >
      <h2 id={titleId} className="text-lg font-semibold text-white">
        Rapport consolidé
      </h2>
      <p id={hintId} className="text-sm text-slate-300">
        Un seul PDF pour le mois{'\u202F'}: un classement des magasins, ceux qui demandent une attention d’abord, puis une page par magasin
        reprenant son propre rapport.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="space-y-1.5">
          <FieldLabel htmlFor={monthFieldId}>Mois</FieldLabel>
          <select id={monthFieldId} value={month} onChange={(event) => setMonth(event.target.value)} className={`${inputClass} sm:w-48`}>
            {months.map((each) => (
              <option key={each} value={each}>
                {formatReportMonth(each)}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1.5 sm:min-w-56 sm:flex-1">
          <FieldLabel htmlFor={scopeFieldId}>Périmètre</FieldLabel>
          <select id={scopeFieldId} value={regionId} onChange={(event) => setChosenRegion(event.target.value)} className={inputClass}>
            <option value="">Tous mes magasins</option>
            {regions.map((region) => (
              <option key={region.id} value={region.id}>
                {region.name}
              </option>
            ))}
          </select>
        </div>
        <Button
          type="submit"
          variant="secondary"
          busy={download.isPending}
          aria-describedby={statusId}
          icon={<FileDown className="size-4" aria-hidden="true" />}
        >
          Télécharger le PDF consolidé
        </Button>
      </div>
      <FormStatus id={statusId} error={error} success={download.isPending ? 'Préparation du PDF consolidé…' : done} />
    </form>
  );
}
