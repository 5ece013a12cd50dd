import type { InputHTMLAttributes } from 'react';

/** A box to tick shown as a chip: its label around it, the chip lit when ticked or focused. */
export const chipClass =
  'inline-flex cursor-pointer items-center gap-2 rounded-full border border-white/15 px-3 py-1.5 text-sm [overflow-wrap:anywhere] text-slate-200 has-[:checked]:border-cyan-300/60 has-[:checked]:bg-cyan-400/15 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-cyan-300';
export const checkClass = 'size-4 shrink-0 accent-cyan-400';

type Named = { id: string; name: string };

/** The ids checked among `items`, in their order, once `id` is checked or not. */
const toggled = (items: readonly Named[], checked: readonly string[], id: string, on: boolean) =>
  items.filter((item) => (item.id === id ? on : checked.includes(item.id))).map((item) => item.id);

/** A fieldset of chips to tick (shops, regions), `empty` said when there is none. */
export function CheckboxList({
  legend,
  empty,
  items,
  checked,
  onChange,
  firstId,
  first,
}: {
  legend: string;
  /** Said when there is nothing to check. */
  empty: string;
  items: readonly Named[];
  checked: readonly string[];
  onChange: (ids: string[]) => void;
  /** The first box's id: the one the focus goes to when none is checked. */
  firstId?: string | undefined;
  /** More attributes of the first box (its `aria-invalid`, its description). */
  first?: InputHTMLAttributes<HTMLInputElement>;
}) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-medium text-slate-200">{legend}</legend>
      {items.length > 0 ? (
        <div className="flex max-h-64 flex-wrap gap-2 overflow-y-auto p-0.5">
          {items.map((item, index) => (
            <label key={item.id} className={chipClass}>
              <input
                id={index === 0 ? firstId : undefined}
                type="checkbox"
                checked={checked.includes(item.id)}
                onChange={(event) => onChange(toggled(items, checked, item.id, event.target.checked))}
                className={checkClass}
                {...(index === 0 ? first : {})}
              />
              {item.name}
            </label>
          ))}
        </div>
      ) : (
        <p className="text-sm text-slate-400">{empty}</p>
      )}
    </fieldset>
  );
}
