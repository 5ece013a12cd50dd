import { CheckCircle2, LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNow } from '@/hooks/use-now';
import { formatMeasure, mainMeasureKey } from '@/lib/measure-format';

/** After this long without a signal, the screen says what to check. */
export const FIRST_SIGNAL_HELP_AFTER_MS = 2 * 60_000;

type Latest = Record<string, { value: number; ts: string }>;

/** « 4,2 °C » for a sensor's first reading; null for a transmitter's signal or nothing yet. */
export function firstValueText(latest: Latest): string | null {
  const key = mainMeasureKey(latest);
  const value = key ? latest[key] : undefined;
  return key && value ? formatMeasure(key, value.value) : null;
}

/**
 * Step 3: the screen waits, live, for the device's first message, and says what to check
 * when nothing comes.
 */
export function FirstSignal({
  name,
  heard,
  latest,
  installedAt,
  actions,
}: {
  name: string;
  /** The device has spoken (a reading or a status message). */
  heard: boolean;
  latest: Latest;
  installedAt: number;
  /** Links shown once the device is in place. */
  actions: ReactNode;
}) {
  const now = useNow(5_000);
  const value = firstValueText(latest);
  const late = !heard && now - installedAt >= FIRST_SIGNAL_HELP_AFTER_MS;

  return (
    <section aria-labelledby="first-signal-title" className="space-y-4">
      <h2 id="first-signal-title" className="text-lg font-semibold text-white">
        3. Premier signal de «&#8239;{name}&#8239;»
      </h2>
      <div role="status" aria-live="polite">
        {heard ? (
          <p className="flex items-start gap-3 rounded-2xl border border-emerald-300/40 bg-emerald-400/10 p-4 text-lg font-semibold text-emerald-100">
            <CheckCircle2 className="mt-0.5 size-6 shrink-0" aria-hidden="true" />
            <span>{value ? `Reçu\u202F: ${value}` : 'Reçu\u202F: premier signal'} — l’appareil est en place</span>
          </p>
        ) : (
          <p className="flex items-center gap-3 rounded-2xl border border-cyan-300/30 bg-cyan-400/10 p-4 text-lg text-cyan-50">
            <LoaderCircle className="size-6 shrink-0 animate-spin motion-reduce:animate-none" aria-hidden="true" />
            En attente du premier signal…
          </p>
        )}
      </div>
      {heard ? (
        <div className="flex flex-wrap gap-3">{actions}</div>
      ) : (
        <details open={late} className="rounded-2xl border border-white/10 bg-slate-950/40 p-4 text-sm text-slate-200">
          <summary className="cursor-pointer font-semibold text-white">
            {late ? 'Rien n’arrive depuis 2 min : que vérifier' : 'Que vérifier si rien n’arrive'}
          </summary>
          <ul className="mt-3 list-disc space-y-2 pl-5">
            <li>
              <strong>L’alimentation</strong>&#8239;: l’appareil est branché ou ses piles sont en place, dans le bon sens, languette de
              protection retirée.
            </li>
            <li>
              <strong>La distance</strong>&#8239;: l’émetteur du magasin est branché et à portée (moins de 10 m, peu de murs ou de portes de
              chambre froide entre les deux).
            </li>
            <li>
              <strong>Les piles</strong>&#8239;: des piles neuves si l’appareil reste muet après 5 min.
            </li>
          </ul>
          <p className="mt-3 text-slate-300">Cet écran se met à jour tout seul dès que l’appareil parle.</p>
        </details>
      )}
    </section>
  );
}
