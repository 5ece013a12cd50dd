import type { Process, ProcessKind, Site } from '@vigie/contract';
import { PROCESS_KIND_LABELS, PROCESS_RULES } from '@vigie/contract/values';
import { formatClock } from '@vigie/contract/clock';
import { Timer } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { useNow } from '@/hooks/use-now';
import { formatNumber } from '@/lib/measure-format';
import { parseDecimal } from '@/lib/quantity-format';
import { useAddProcessReading, useEndProcess, useProcesses, useStartProcess } from '../api/task-queries';
import { remainingText, sendErrorText } from '../task-format';
import { FieldLabel } from '@/components/ui/field-label';

const degrees = (value: number) => `${formatNumber(value, 1).replace('-', '−')}\u202F°C`;

/** A temperature typed on the phone's number pad, or the French reason it is not one. */
function readTemperature(text: string): number | string {
  const value = parseDecimal(text);
  if (Number.isNaN(value)) return 'Indiquez la température du produit, en °C.';
  if (value < -80 || value > 300) return 'La température doit être comprise entre −80 et +300 °C.';
  return value;
}

/** A process running: its product, its last temperature, the time left, and a field for the next one. */
function RunningProcess({ process, timeZone, now }: { process: Process; timeZone: string | undefined; now: number }) {
  const add = useAddProcessReading();
  const end = useEndProcess();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const last = process.readings[process.readings.length - 1];
  const deadline = Date.parse(process.deadline);
  const cooling = process.kind === 'cooling';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = readTemperature(text);
    if (typeof value === 'string') return setError(value);
    setError(null);
    add.mutate({ id: process.id, temperature: value }, { onSuccess: () => setText('') });
  };
  return (
    <li className="space-y-3 rounded-xl border border-white/10 bg-slate-950/40 p-4" data-testid="process">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-white">
          {PROCESS_KIND_LABELS[process.kind]} — {process.product}
        </p>
        <p className="text-sm text-slate-300">
          {last ? `Dernière lecture ${degrees(last.temperature)} à ${formatClock(last.at, timeZone)}` : 'Aucune lecture'}
        </p>
      </div>
      <p className="flex items-center gap-2 text-sm text-cyan-100" role="timer" aria-live="off">
        <Timer className="size-4" aria-hidden="true" />
        {now < deadline
          ? cooling
            ? `+${PROCESS_RULES.coolTarget}\u202F°C à atteindre avant ${formatClock(deadline, timeZone)} (encore ${remainingText(deadline, now)})`
            : `Prochaine lecture avant ${formatClock(deadline, timeZone)} (encore ${remainingText(deadline, now)})`
          : 'Échéance dépassée'}
      </p>
      <form noValidate onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <div className="min-w-36 flex-1 space-y-1.5">
          <FieldLabel htmlFor={id}>Température du produit (°C)</FieldLabel>
          <input
            id={id}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className={inputClass}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <Button type="submit" variant="secondary" busy={add.isPending}>
          Noter
        </Button>
        {!cooling && (
          <Button onClick={() => end.mutate(process.id)} busy={end.isPending}>
            Terminer
          </Button>
        )}
      </form>
      <FormStatus
        error={
          error ??
          (add.isError
            ? sendErrorText(add.error, 'La lecture n’a pas été notée.')
            : end.isError
              ? sendErrorText(end.error, 'Le procédé n’a pas été terminé.')
              : null)
        }
      />
    </li>
  );
}

/**
 * Cooling of cooked food (+63 °C to +10 °C within 2 h) and hot holding (+63 °C or above, read at
 * most 2 h apart): started with the product and its first temperature, followed with a countdown.
 */
export function ProcessPanel({ sites }: { sites: readonly Site[] }) {
  const processes = useProcesses();
  const start = useStartProcess();
  const now = useNow(15_000);
  const [kind, setKind] = useState<ProcessKind>('cooling');
  const [siteId, setSiteId] = useState('');
  const [product, setProduct] = useState('');
  const [temperature, setTemperature] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = { kind: useId(), site: useId(), product: useId(), temperature: useId(), title: useId() };
  const site = siteId || sites[0]?.id || '';
  const zoneOf = (id: string) => sites.find((candidate) => candidate.id === id)?.timezone;
  const running = (processes.data ?? []).filter((process) => process.status === 'running');
  const failed = (processes.data ?? []).filter(
    (process) => process.status === 'failed' && now - Date.parse(process.startedAt) < 24 * 3600_000,
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!site) return setError('Choisissez un magasin.');
    if (!product.trim()) return setError('Indiquez le produit.');
    const value = readTemperature(temperature);
    if (typeof value === 'string') return setError(value);
    setError(null);
    start.mutate(
      { kind, siteId: site, product: product.trim(), temperature: value },
      {
        onSuccess: () => {
          setProduct('');
          setTemperature('');
        },
      },
    );
  };

  return (
    <section aria-labelledby={ids.title} className="space-y-4 rounded-2xl border border-white/10 bg-slate-900/60 p-5 sm:p-6">
      <h2 id={ids.title} className="text-lg font-semibold text-white">
        Refroidissements et maintiens au chaud
      </h2>
      {running.length > 0 && (
        <ul className="space-y-3">
          {running.map((process) => (
            <RunningProcess key={process.id} process={process} timeZone={zoneOf(process.siteId)} now={now} />
          ))}
        </ul>
      )}
      {failed.map((process) => (
        <p key={process.id} className="rounded-xl border border-red-400/40 bg-red-500/10 p-3 text-sm text-red-100" role="status">
          {PROCESS_KIND_LABELS[process.kind]} — {process.product}
          {'\u202F'}: en échec. {process.failure}{' '}
          {process.alertId && (
            <Link to={`/dashboard/alertes/${process.alertId}`} className="font-semibold text-cyan-200 underline underline-offset-4">
              Noter le devenir du produit
            </Link>
          )}
        </p>
      ))}
      <form noValidate onSubmit={submit} className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <FieldLabel htmlFor={ids.kind}>Procédé</FieldLabel>
          <select id={ids.kind} className={inputClass} value={kind} onChange={(event) => setKind(event.target.value as ProcessKind)}>
            <option value="cooling">{PROCESS_KIND_LABELS.cooling}</option>
            <option value="hot_holding">{PROCESS_KIND_LABELS.hot_holding}</option>
          </select>
        </div>
        {sites.length > 1 && (
          <div className="space-y-1.5">
            <FieldLabel htmlFor={ids.site}>Magasin</FieldLabel>
            <select id={ids.site} className={inputClass} value={site} onChange={(event) => setSiteId(event.target.value)}>
              {sites.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="space-y-1.5">
          <FieldLabel htmlFor={ids.product}>Produit</FieldLabel>
          <input id={ids.product} type="text" className={inputClass} value={product} onChange={(event) => setProduct(event.target.value)} />
        </div>
        <div className="space-y-1.5">
          <FieldLabel htmlFor={ids.temperature}>Température de départ (°C)</FieldLabel>
          <input
            id={ids.temperature}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className={inputClass}
            value={temperature}
            onChange={(event) => setTemperature(event.target.value)}
          />
        </div>
        <div className="sm:col-span-2">
          <FormStatus error={error ?? (start.isError ? sendErrorText(start.error, 'Le procédé n’a pas commencé.') : null)} />
          <Button type="submit" variant="primary" busy={start.isPending}>
            Démarrer
          </Button>
        </div>
      </form>
    </section>
  );
}
