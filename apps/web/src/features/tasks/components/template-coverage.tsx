import { CheckboxList } from '@/components/ui/checkbox-list';
import type { TemplateDraft } from '../template-draft';
import { checkClass, hintClass, legendClass, type FieldIds } from './template-fields';

const NNBSP = '\u202F';

/** A site or a region, as the editor names them. */
export type Named = { id: string; name: string };

/**
 * « Sites couverts »: a member who sees some sites only ticks theirs; the others choose every site
 * (those opened later too) or regions and sites.
 */
export function TemplateCoverageFields({
  draft,
  ids,
  scoped,
  sites,
  regions,
  onChange: set,
}: {
  draft: TemplateDraft;
  ids: FieldIds;
  scoped: boolean;
  sites: readonly Named[];
  regions: readonly Named[];
  onChange: (changes: Partial<TemplateDraft>) => void;
}) {
  return (
    <fieldset className="min-w-0 space-y-3">
      <legend className={legendClass}>Sites couverts</legend>
      {scoped ? (
        <>
          <p className={hintClass}>Vous créez les modèles de vos sites{NNBSP}: cochez ceux qu’il couvre.</p>
          <CheckboxList
            legend="Sites"
            empty="Aucun site."
            items={sites}
            checked={draft.siteIds}
            onChange={(siteIds) => set({ siteIds })}
            firstId={ids.id('coverage')}
            first={ids.invalid('coverage')}
          />
        </>
      ) : (
        <>
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-4">
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-200">
              <input
                type="radio"
                name={ids.id('where')}
                checked={draft.everywhere}
                onChange={() => set({ everywhere: true })}
                className={checkClass}
              />
              Tous les sites
            </label>
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-200">
              <input
                id={ids.id('coverage')}
                type="radio"
                name={ids.id('where')}
                checked={!draft.everywhere}
                onChange={() => set({ everywhere: false })}
                className={checkClass}
                {...ids.invalid('coverage')}
              />
              Des régions ou des sites choisis
            </label>
          </div>
          <p className={hintClass}>
            {draft.everywhere
              ? 'Chaque site, y compris ceux ouverts plus tard.'
              : 'Les sites cochés, et ceux des régions cochées, y compris ceux qui les rejoindront.'}
          </p>
          {!draft.everywhere && (
            <div className="grid gap-4">
              {regions.length > 0 && (
                <CheckboxList
                  legend="Régions"
                  empty="Aucune région."
                  items={regions}
                  checked={draft.regionIds}
                  onChange={(regionIds) => set({ regionIds })}
                />
              )}
              <CheckboxList
                legend="Sites"
                empty="Aucun site."
                items={sites}
                checked={draft.siteIds}
                onChange={(siteIds) => set({ siteIds })}
              />
            </div>
          )}
        </>
      )}
    </fieldset>
  );
}
