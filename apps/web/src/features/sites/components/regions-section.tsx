import type { Region, Site } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { LoaderCircle, Pencil, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FormStatus } from '@/components/ui/form-status';
import { DetailSection, inputClass } from '@/components/ui/section';
import { useAuth } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { useRegions } from '../api/get-overview';
import { useSites } from '../api/get-sites';
import { AddByNameForm } from './add-by-name-form';
import { useCreateRegion, useDeleteRegion, useRenameRegion } from '../api/region-queries';
import { FieldLabel } from '@/components/ui/field-label';

const NNBSP = '\u202F';
/** Names listed under a region before « et N autres »: a chain's region may hold hundreds of shops. */
const NAMES_SHOWN = 12;

const quoted = (name: string) => `«${NNBSP}${name}${NNBSP}»`;

function shopCount(count: number): string {
  if (count === 0) return 'Aucun magasin';
  return count === 1 ? '1 magasin' : `${count.toLocaleString('fr-FR')} magasins`;
}

function namesText(shops: readonly Site[]): string {
  const names = shops.slice(0, NAMES_SHOWN).map((shop) => shop.name);
  const more = shops.length - names.length;
  return more > 0 ? `${names.join(', ')} et ${more.toLocaleString('fr-FR')} autre${more > 1 ? 's' : ''}` : names.join(', ');
}

/** « 2 magasins : Lille Centre, Roubaix », or « Aucun magasin ». */
function shopsText(shops: readonly Site[]): string {
  return shops.length === 0 ? shopCount(0) : `${shopCount(shops.length)}${NNBSP}: ${namesText(shops)}`;
}

/** The shops of each region, by name. */
function shopsByRegion(sites: readonly Site[]): Map<string, Site[]> {
  const byRegion = new Map<string, Site[]>();
  for (const site of sites) {
    if (!site.regionId) continue;
    byRegion.set(site.regionId, [...(byRegion.get(site.regionId) ?? []), site]);
  }
  for (const shops of byRegion.values()) shops.sort((a, b) => a.name.localeCompare(b.name, 'fr'));
  return byRegion;
}

const actionClass = 'min-h-11';

/**
 * « Régions » on the Magasins page: the groups of shops that « Réseau » filters by and that a
 * member's scope may name. An admin who sees the whole organization creates, renames and deletes
 * them (the server refuses anyone else); the others see them read-only, or nothing when there are
 * none. A shop is put in a region from its own editor, further down the page. `onChanged`: after a
 * deletion, which takes its shops out of the rule templates aimed at the region.
 */
export function RegionsSection({ onChanged, className = '' }: { onChanged?: () => void; className?: string }) {
  const regions = useRegions();
  const sites = useSites();
  const { user } = useAuth();
  // As the server holds it: an admin, and one whose scope is the whole organization (no scope).
  const canManage = useCan()(endpoints.regions.create) && !user?.scope;

  if (!canManage && !regions.data?.length) return null;

  const byRegion = shopsByRegion(sites.data ?? []);
  return (
    <div className={className}>
      <DetailSection
        id="regions"
        title="Régions"
        description={
          canManage
            ? `Des groupes de magasins, pour filtrer ${quoted('Réseau')} et limiter ce que voit un membre. Un magasin se place dans une région depuis sa fiche, plus bas.`
            : 'Les groupes de magasins de l’organisation, que gère un administrateur.'
        }
      >
        <div className="space-y-6">
          {regions.isError ? (
            <Alert size="compact">{errorMessage(regions.error, 'Les régions n’ont pas pu être lues.')}</Alert>
          ) : !regions.data ? (
            <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
              <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
              Chargement des régions…
            </p>
          ) : canManage ? (
            <ManagedRegions regions={regions.data} byRegion={byRegion} onChanged={onChanged} />
          ) : (
            <RegionList regions={regions.data} byRegion={byRegion} />
          )}
          {canManage && <NewRegionForm />}
        </div>
      </DetailSection>
    </div>
  );
}

type ListProps = { regions: readonly Region[]; byRegion: ReadonlyMap<string, Site[]> };

function RegionName({ region, shops }: { region: Region; shops: readonly Site[] }) {
  return (
    <div className="min-w-0 flex-1 basis-60">
      <h3 className="font-semibold break-words text-white">{region.name}</h3>
      <p className="text-sm break-words text-slate-300">{shopsText(shops)}</p>
    </div>
  );
}

/** The regions read-only. */
function RegionList({ regions, byRegion }: ListProps) {
  return (
    <ul className="divide-y divide-white/10">
      {regions.map((region) => (
        <li key={region.id} data-testid="region" className="flex py-3 first:pt-0 last:pb-0">
          <RegionName region={region} shops={byRegion.get(region.id) ?? []} />
        </li>
      ))}
    </ul>
  );
}

/** The regions with, for each, « Renommer » (in place) and « Supprimer » (after a confirmation). */
function ManagedRegions({ regions, byRegion, onChanged }: ListProps & { onChanged?: (() => void) | undefined }) {
  const rename = useRenameRegion();
  const remove = useDeleteRegion();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [removing, setRemoving] = useState<Region | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const ids = useId();
  const removingShops = removing ? (byRegion.get(removing.id) ?? []) : [];
  const renameButtonId = (id: string) => `${ids}-rename-${id}`;

  // The field gives way to the row again (saved or cancelled): the focus goes back to its « Renommer »
  // rather than to the top of the page.
  const stopRenaming = (id: string) => {
    setRenaming(null);
    requestAnimationFrame(() => document.getElementById(renameButtonId(id))?.focus());
  };

  const startRenaming = (region: Region) => {
    setRenaming(region.id);
    setNewName(region.name);
    setError(null);
    setDone(null);
  };

  const onRename = (event: FormEvent, region: Region) => {
    event.preventDefault();
    setDone(null);
    const name = newName.trim();
    if (!name) return setError('Le nom de la région est obligatoire.');
    setError(null);
    rename.mutate(
      { id: region.id, name },
      {
        onSuccess: (renamed) => {
          stopRenaming(region.id);
          setDone(`Région ${quoted(region.name)} renommée en ${quoted(renamed.name)}.`);
        },
        onError: (failure) => setError(errorMessage(failure, 'La région n’a pas été renommée.')),
      },
    );
  };

  const onConfirmRemove = () => {
    if (!removing) return;
    const region = removing;
    setError(null);
    setDone(null);
    remove.mutate(region.id, {
      onSuccess: () => {
        setRemoving(null);
        setDone(`Région ${quoted(region.name)} supprimée.`);
        onChanged?.();
      },
      onError: (failure) => {
        setRemoving(null);
        setError(errorMessage(failure, 'La région n’a pas été supprimée.'));
      },
    });
  };

  return (
    <div className="space-y-3">
      {regions.length === 0 ? (
        <p className="text-sm text-slate-300">Aucune région pour l’instant{NNBSP}: créez-en une pour regrouper des magasins.</p>
      ) : (
        <ul className="divide-y divide-white/10">
          {regions.map((region) => {
            const shops = byRegion.get(region.id) ?? [];
            return (
              <li key={region.id} data-testid="region" className="py-3 first:pt-0 last:pb-0">
                {renaming === region.id ? (
                  <form
                    onSubmit={(event) => onRename(event, region)}
                    noValidate
                    aria-label={`Renommer la région ${region.name}`}
                    className="flex flex-col gap-2 sm:flex-row sm:items-end"
                  >
                    <div className="flex-1 space-y-1.5">
                      <FieldLabel htmlFor={`${ids}-rename`}>Nouveau nom de la région</FieldLabel>
                      <input
                        id={`${ids}-rename`}
                        value={newName}
                        // The field replaces the button just pressed: the focus goes on to it.
                        autoFocus
                        aria-describedby={`${ids}-status`}
                        onChange={(event) => setNewName(event.target.value)}
                        className={`${inputClass} ${actionClass}`}
                      />
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Button type="submit" variant="primary" busy={rename.isPending} className={actionClass}>
                        Enregistrer
                      </Button>
                      <Button type="button" className={actionClass} onClick={() => stopRenaming(region.id)}>
                        Annuler
                      </Button>
                    </div>
                  </form>
                ) : (
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <RegionName region={region} shops={shops} />
                    <div className="flex flex-wrap gap-2">
                      <Button
                        id={renameButtonId(region.id)}
                        size="sm"
                        className={actionClass}
                        aria-label={`Renommer la région ${region.name}`}
                        icon={<Pencil className="size-4" aria-hidden="true" />}
                        onClick={() => startRenaming(region)}
                      >
                        Renommer
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        className={actionClass}
                        aria-label={`Supprimer la région ${region.name}`}
                        icon={<Trash2 className="size-4" aria-hidden="true" />}
                        onClick={() => {
                          setError(null);
                          setDone(null);
                          setRemoving(region);
                        }}
                      >
                        Supprimer
                      </Button>
                    </div>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <FormStatus id={`${ids}-status`} error={error} success={done} />
      <ConfirmDialog
        open={removing !== null}
        title={removing ? `Supprimer la région ${quoted(removing.name)}${NNBSP}?` : `Supprimer cette région${NNBSP}?`}
        confirmLabel={remove.isPending ? 'Suppression…' : 'Supprimer la région'}
        busy={remove.isPending}
        onConfirm={onConfirmRemove}
        onCancel={() => setRemoving(null)}
      >
        {removingShops.length === 0
          ? 'Elle ne compte aucun magasin.'
          : `${removingShops.length === 1 ? 'Son magasin reste, sans région' : `Ses ${shopCount(removingShops.length)} restent, sans région`}${NNBSP}: ${namesText(removingShops)}. Les modèles de règles qui visent cette région ne s’y appliquent plus, et un membre dont la portée se limite à cette région ne les voit plus.`}
      </ConfirmDialog>
    </div>
  );
}

/** Creates a region: a name, unique in the organization (the server says so otherwise). */
function NewRegionForm() {
  const create = useCreateRegion();
  return (
    <AddByNameForm
      label="Nouvelle région"
      placeholder="Hauts-de-France"
      submitLabel="Ajouter la région"
      requiredMessage="Le nom de la région est obligatoire."
      failureMessage="La région n’a pas été créée."
      busy={create.isPending}
      create={async (name) => `Région ${quoted((await create.mutateAsync(name)).name)} ajoutée.`}
      className="border-t border-white/10 pt-4"
      controlClassName={actionClass}
    />
  );
}
