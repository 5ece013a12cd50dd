import { LoaderCircle, Plus } from 'lucide-react';
import { DEVICE_KINDS, type DeviceKind } from '../device-kinds';
import { DEVICE_PRESENTATION } from '../device-presentation';

type DeviceEmptyStateProps = {
  kind: DeviceKind;
  creating: boolean;
  /** null: no add button (a viewer), and a text that does not ask to add. */
  onAdd: (() => void) | null;
};

export function DeviceEmptyState({ kind, creating, onAdd }: DeviceEmptyStateProps) {
  const { labels } = DEVICE_KINDS[kind];
  const Icon = DEVICE_PRESENTATION[kind].icon;

  return (
    <div className="flex flex-col items-center rounded-3xl border border-dashed border-white/15 bg-slate-900/40 px-4 py-12 sm:px-6 sm:py-14 text-center">
      <span className="grid size-14 place-items-center rounded-2xl bg-gradient-to-br from-cyan-400/20 to-violet-500/20 text-cyan-200">
        <Icon className="size-7" aria-hidden="true" />
      </span>
      <h3 className="mt-5 text-lg font-semibold text-white">{labels.emptyTitle}</h3>
      <p className="mt-2 max-w-md text-sm leading-relaxed text-slate-300">
        {onAdd ? labels.emptyText : 'Un administrateur ou un responsable de votre organisation les ajoute\u202F; ils apparaîtront ici.'}
      </p>
      {onAdd && (
        <button
          type="button"
          onClick={onAdd}
          disabled={creating}
          className="mt-6 inline-flex items-center gap-2 rounded-xl border border-cyan-300/30 bg-cyan-300/10 px-4 sm:px-5 py-2.5 text-sm font-semibold text-cyan-100 transition hover:bg-cyan-300/20 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {creating ? <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> : <Plus className="size-4" aria-hidden="true" />}
          {labels.addFirst}
        </button>
      )}
    </div>
  );
}
