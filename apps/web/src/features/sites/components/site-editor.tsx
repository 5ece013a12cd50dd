import type { OpeningHours, OpeningWindow, Site } from '@vigie/contract';
import { Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection, inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { usePermissions } from '@/lib/permissions';
import { useDeleteSite, useUpdateSite } from '../api/site-mutations';
import { DAYS, parseWindows, windowsText } from '../opening-hours-text';
import { FieldLabel } from '@/components/ui/field-label';

const NNBSP = '\u202F';

/** A site as a viewer sees it: its opening hours and what watches it, nothing to change. */
function SiteSummary({ site, regions, status, children }: { site: Site; regions: Regions; status?: ReactNode; children?: ReactNode }) {
  const region = regions.find((candidate) => candidate.id === site.regionId);
  return (
    <DetailSection
      id={`site-${site.id}`}
      title={site.name}
      description={`Fuseau horaire${NNBSP}: ${site.timezone}${region ? ` · Région${NNBSP}: ${region.name}` : ''}`}
    >
      <div className="space-y-6">
        {status}
        <div>
          <h3 className="text-sm font-medium text-slate-200">Horaires d’ouverture (heure locale)</h3>
          <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            {DAYS.map(({ key, label }) => (
              <div key={key} className="contents">
                <dt className="text-slate-400">{label}</dt>
                <dd className="text-slate-100">{windowsText(site.openingHours[key])}</dd>
              </div>
            ))}
          </dl>
        </div>
        {children}
      </div>
    </DetailSection>
  );
}

type Regions = readonly { id: string; name: string }[];

type SiteEditorProps = {
  site: Site;
  /** The organization's regions, to put the site in one. */
  regions?: Regions;
  /** What the shop is going through now, shown first (its pause, and the control to pause it). */
  status?: ReactNode;
  /** After the site is saved: its region may have laid or lifted the rules of a template. */
  onSaved?: () => void;
  children?: ReactNode;
};

/** One site: its name, time zone and opening hours, what watches it (`children`), and its deletion. */
export function SiteEditor({ site, regions = [], status, onSaved, children }: SiteEditorProps) {
  const { manage } = usePermissions();
  if (!manage)
    return (
      <SiteSummary site={site} regions={regions} status={status}>
        {children}
      </SiteSummary>
    );
  return (
    <SiteForm site={site} regions={regions} status={status} onSaved={onSaved}>
      {children}
    </SiteForm>
  );
}

function SiteForm({ site, regions, status, onSaved, children }: Required<Pick<SiteEditorProps, 'site' | 'regions'>> & SiteEditorProps) {
  const update = useUpdateSite();
  const remove = useDeleteSite();
  const [name, setName] = useState(site.name);
  const [timezone, setTimezone] = useState(site.timezone);
  const [regionId, setRegionId] = useState(site.regionId ?? '');
  // A region deleted meanwhile (its shops are then in none): the choice falls back to « Aucune région ».
  const chosenRegion = regions.some((region) => region.id === regionId) ? regionId : '';
  const [days, setDays] = useState(() => Object.fromEntries(DAYS.map(({ key }) => [key, windowsText(site.openingHours[key])])));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const ids = { name: useId(), timezone: useId(), region: useId(), status: useId(), deleteStatus: useId() };
  const dayId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    const openingHours: Partial<Record<keyof OpeningHours, OpeningWindow[]>> = {};
    for (const { key, label } of DAYS) {
      const parsed = parseWindows(days[key] ?? '');
      if (typeof parsed === 'string') return setError(`${label}${NNBSP}: ${parsed}`);
      openingHours[key] = parsed;
    }
    if (!name.trim()) return setError('Le nom est obligatoire.');
    setError(null);
    update.mutate(
      {
        id: site.id,
        changes: {
          name: name.trim(),
          timezone: timezone.trim(),
          openingHours: openingHours as OpeningHours,
          // Only where the organization has regions: the site belongs to one at most.
          ...(regions.length > 0 ? { regionId: chosenRegion || null } : {}),
        },
      },
      {
        onSuccess: () => {
          setSaved('Site enregistré.');
          onSaved?.();
        },
        onError: (failure) => setError(errorMessage(failure, 'Le site n’a pas été enregistré.')),
      },
    );
  };

  return (
    <DetailSection id={`site-${site.id}`} title={site.name} description={`Fuseau horaire${NNBSP}: ${site.timezone}`}>
      <div className="space-y-6">
        {status}
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-1.5">
              <FieldLabel htmlFor={ids.name}>Nom du site</FieldLabel>
              <input id={ids.name} value={name} onChange={(e) => setName(e.target.value)} className={inputClass} />
            </div>
            <div className="space-y-1.5">
              <FieldLabel htmlFor={ids.timezone}>Fuseau horaire (IANA)</FieldLabel>
              <input id={ids.timezone} value={timezone} onChange={(e) => setTimezone(e.target.value)} className={inputClass} />
            </div>
            {regions.length > 0 && (
              <div className="space-y-1.5">
                <FieldLabel htmlFor={ids.region}>Région</FieldLabel>
                <select id={ids.region} value={chosenRegion} onChange={(e) => setRegionId(e.target.value)} className={inputClass}>
                  <option value="">Aucune région</option>
                  {regions.map((region) => (
                    <option key={region.id} value={region.id}>
                      {region.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </div>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-200">
              Horaires d’ouverture (heure locale{NNBSP}; «{NNBSP}fermé{NNBSP}» ou vide si fermé)
            </legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {DAYS.map(({ key, label }) => (
                <div key={key} className="flex items-center gap-3">
                  <label htmlFor={`${dayId}-${key}`} className="w-24 shrink-0 text-sm text-slate-300">
                    {label}
                  </label>
                  <input
                    id={`${dayId}-${key}`}
                    value={days[key] ?? ''}
                    placeholder="09:00–19:00"
                    onChange={(e) => setDays({ ...days, [key]: e.target.value })}
                    className={inputClass}
                  />
                </div>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" variant="primary" busy={update.isPending}>
              Enregistrer le site
            </Button>
            <FormStatus id={ids.status} error={error} success={saved} />
          </div>
        </form>
        {children}
        <div className="flex flex-wrap items-center gap-3 border-t border-white/10 pt-4">
          <Button
            variant="danger"
            size="sm"
            busy={remove.isPending}
            icon={<Trash2 className="size-4" aria-hidden="true" />}
            onClick={() => {
              setDeleteError(null);
              remove.mutate(site.id, { onError: (failure) => setDeleteError(errorMessage(failure, 'Le site n’a pas été supprimé.')) });
            }}
          >
            Supprimer le site
          </Button>
          <FormStatus id={ids.deleteStatus} error={deleteError} />
        </div>
      </div>
    </DetailSection>
  );
}
