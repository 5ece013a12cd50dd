import { useId } from 'react';
import { saveThemeChoice, type ThemeChoice, useTheme } from '@/lib/theme';

const OPTIONS: { value: ThemeChoice; label: string; hint: string }[] = [
  { value: 'system', label: 'Automatique', hint: 'Clair ou sombre comme le réglage de cet appareil.' },
  { value: 'light', label: 'Clair', hint: 'Lisible dans une réserve bien éclairée.' },
  { value: 'dark', label: 'Sombre', hint: 'Moins lumineux, le soir ou dans un local sombre.' },
];

/** « Mon compte »: the look of the app on this device, kept in this browser. */
export function ThemePanel() {
  const { choice } = useTheme();
  const id = useId();
  return (
    <fieldset className="space-y-2">
      <legend className="sr-only">Apparence</legend>
      {OPTIONS.map((option) => (
        <div key={option.value} className="flex items-start gap-3">
          <input
            id={`${id}-${option.value}`}
            type="radio"
            name={`${id}-theme`}
            value={option.value}
            checked={choice === option.value}
            onChange={() => saveThemeChoice(option.value)}
            aria-describedby={`${id}-${option.value}-hint`}
            className="mt-1 size-5 shrink-0 accent-cyan-400"
          />
          <div className="min-w-0">
            <label htmlFor={`${id}-${option.value}`} className="text-sm font-medium text-white">
              {option.label}
            </label>
            <p id={`${id}-${option.value}-hint`} className="text-xs text-slate-400">
              {option.hint}
            </p>
          </div>
        </div>
      ))}
    </fieldset>
  );
}
