import { useId, useState, type ReactNode } from 'react';

type CappedListProps<T> = {
  items: T[];
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** Shown at first. */
  initial: number;
  /** Never more than this in the page, however long the list: the rest is only counted. */
  max?: number;
  /** The button that shows `count` more items: « Voir les 3 suivantes ». */
  moreLabel: (count: number) => string;
  /** What is said of the `count` items beyond `max`. */
  rest?: (count: number) => ReactNode;
  className?: string;
  label?: string;
};

/** A list that shows its first items, the next ones on demand, and only counts those beyond `max`. */
export function CappedList<T>({
  items,
  itemKey,
  renderItem,
  initial,
  max = Infinity,
  moreLabel,
  rest,
  className = '',
  label,
}: CappedListProps<T>) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const inPage = Math.min(items.length, max);
  const more = inPage - initial;
  const beyond = items.length - inPage;
  return (
    <div>
      <ul id={listId} className={className} aria-label={label}>
        {items.slice(0, expanded ? inPage : Math.min(initial, inPage)).map((item) => (
          <li key={itemKey(item)}>{renderItem(item)}</li>
        ))}
      </ul>
      {(more > 0 || (beyond > 0 && rest)) && (
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          {more > 0 && (
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={listId}
              onClick={() => setExpanded(!expanded)}
              className="rounded-lg px-2 py-1 font-medium text-cyan-200 underline-offset-4 hover:bg-white/5 hover:underline"
            >
              {expanded ? 'Voir moins' : moreLabel(more)}
            </button>
          )}
          {beyond > 0 && rest && <p className="text-slate-300">{rest(beyond)}</p>}
        </div>
      )}
    </div>
  );
}
