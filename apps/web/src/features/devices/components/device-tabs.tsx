import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { formatNumber } from '@/lib/measure-format';

export type TabItem<T extends string> = { id: T; label: string; count?: number | undefined };

type DeviceTabsProps<T extends string> = {
  label: string;
  tabs: TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  children: ReactNode;
};

/** WAI-ARIA tabs with automatic activation: arrows, Home and End move and select. */
export function DeviceTabs<T extends string>({ label, tabs, selected, onSelect, children }: DeviceTabsProps<T>) {
  const tabRefs = useRef(new Map<T, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    let next: number | null = null;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.id);
    tabRefs.current.get(tab.id)?.focus();
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="inline-flex w-full gap-1 rounded-2xl border border-white/10 bg-slate-900/60 p-1 backdrop-blur sm:w-auto"
      >
        {tabs.map((tab) => {
          const isSelected = tab.id === selected;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) tabRefs.current.set(tab.id, element);
                else tabRefs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(tab.id)}
              className={`inline-flex flex-1 items-center justify-center gap-2 rounded-xl px-5 py-2.5 text-sm font-semibold transition-colors sm:flex-none ${
                isSelected ? 'bg-white text-slate-950 shadow' : 'text-slate-300 hover:bg-white/5 hover:text-white'
              }`}
            >
              {tab.label}
              {tab.count !== undefined && (
                <span
                  className={`min-w-6 rounded-full px-2 py-0.5 text-xs tabular-nums ${
                    isSelected ? 'bg-slate-900 text-white' : 'bg-white/10 text-slate-200'
                  }`}
                >
                  {formatNumber(tab.count)}
                </span>
              )}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`panel-${selected}`}
        aria-labelledby={`tab-${selected}`}
        tabIndex={0}
        className="mt-8 rounded-2xl focus-visible:outline-offset-8"
      >
        {children}
      </div>
    </div>
  );
}
