import type { Alert, Rule } from '@vigie/contract';
import { ChevronRight } from 'lucide-react';
import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ForecastLabel } from '@/components/forecast-label';
import { useNow } from '@/hooks/use-now';
import type { CameFromState } from '@/lib/came-from';
import { formatClock } from '@/lib/clock-format';
import { errorMessage } from '@/lib/errors';
import { forecastTarget } from '@/lib/forecast-label';
import { usePermissions } from '@/lib/permissions';
import { formatDateTime, formatMeasure } from '@/lib/measure-format';
import { useAlertStep } from '../api/alert-actions';
import { describeCondition, formatDuration, SCHEDULE_LABELS } from '../alert-format';
import { peakDirection, peakLabel } from '../alert-curve-data';
import { AlertActSections } from './alert-act';
import { AlertCurve, type AlertChartProps } from './alert-curve';
import { AlertTimeline } from './alert-timeline';
import { alertValue, isPredicted, readingBeyond, type SensorReading } from './alert-value';
import { planAlertFinding } from '../plan-alert';
import { AlertStatusBadge, PredictedBadge, SeverityBadge } from './severity-badge';

/** The query a pushed notification's « Prendre en compte » opens the alert's page with. */
export const ACKNOWLEDGE_PARAM = 'prendre-en-compte';

/**
 * « Prendre en compte » from a pushed notification opens the page with `?prendre-en-compte=1`:
 * the alert is acknowledged once, as from the button (the server records who, for the trail),
 * and the query leaves the address so a reload does nothing more.
 */
function useAcknowledgeFromNotification(alert: Alert, allowed: boolean): string | null {
  const [params, setParams] = useSearchParams();
  const step = useAlertStep({ id: alert.id });
  const tried = useRef(false);
  const [said, setSaid] = useState<string | null>(null);
  const asked = params.get(ACKNOWLEDGE_PARAM) === '1';
  useEffect(() => {
    if (!asked || tried.current) return;
    tried.current = true;
    setParams(
      (current) => {
        current.delete(ACKNOWLEDGE_PARAM);
        return current;
      },
      { replace: true },
    );
    // Already taken by someone (the page says by whom), or closed: nothing to do.
    if (!allowed) return;
    step.mutate(
      { kind: 'acknowledge', comment: 'Depuis la notification' },
      {
        onSuccess: () => setSaid('Alerte prise en compte depuis la notification.'),
        onError: (error) => setSaid(errorMessage(error, 'L’alerte n’a pas pu être prise en compte.')),
      },
    );
  }, [asked, allowed, setParams, step]);
  return said;
}

/** One figure of the summary: a small label over its value. */
function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-400">{label}</p>
      {children}
    </div>
  );
}

/**
 * An alert's page: what happened first — its worst value once resolved (the latest while it runs,
 * the worst beside it), how long it lasted, the limit allowed — then the curve around it, and the
 * three things a person does: acknowledge, record a corrective action, resolve (which needs an
 * action first). The timeline in full stands beside, on a wide screen.
 */
export function AlertDetail({
  alert,
  rule,
  sensorName,
  sensorLink,
  siteName,
  who,
  reading = null,
  timeZone,
  chart,
}: {
  alert: Alert;
  /** null: the rule was deleted; undefined: still loading. */
  rule: Rule | null | undefined;
  /** The name of the sensor, or of the transmitter (`alert.deviceKind`), the alert is about. */
  sensorName: string;
  /** The page of that sensor or transmitter, leading back to this alert; none for a device that is gone. */
  sensorLink?: { to: string; state: CameFromState } | null;
  siteName: string | null;
  /** The sensor's latest reading of the alert's measure: the value of a « dépassement prévu », beside its forecast. */
  reading?: SensorReading | null;
  /** The site's zone, for the time a limit is forecast to be crossed. */
  timeZone?: string | undefined;
  /** A member's display name, or null when unknown (e.g. Vigie itself). */
  who: (userId: string | null | undefined) => string | null;
  /** The chart that draws the curve around the alert (the sensor page's, composed by app/); no curve without it. */
  chart?: ComponentType<AlertChartProps> | undefined;
}) {
  const now = useNow(30_000);
  // A viewer may acknowledge; recording actions and resolving are for admins and managers.
  const { manage, acknowledgeAlerts } = usePermissions();
  const canAcknowledge = acknowledgeAlerts && alert.status === 'open';
  const fromNotification = useAcknowledgeFromNotification(alert, canAcknowledge);
  const resolved = alert.status === 'resolved';
  const end = alert.resolvedAt ? Date.parse(alert.resolvedAt) : now;
  const predicted = isPredicted(alert) ? alert.forecast : null;
  // A forecast is no reading: the value is red only when the sensor itself measured a breach.
  const red = !resolved && (!predicted || readingBeyond(predicted, reading));
  const worst = peakLabel(peakDirection(alert, rule?.condition));
  // A measured breach's peak (a forecast's is no reading): the big figure once resolved, beside the latest value before.
  const peak = !predicted && alert.key !== null && alert.peak !== null ? formatMeasure(alert.key, alert.peak) : null;
  const peakFirst = resolved && peak !== null;
  const duration = formatDuration(alert.openedAt, end);
  const values: [string, string][] =
    predicted && alert.key
      ? [
          ['Mesuré', reading ? `${alertValue(alert, reading)} à ${formatClock(Date.parse(reading.ts), timeZone)}` : 'Aucune mesure connue'],
          ['Prévu', forecastTarget(alert.key, predicted, now, timeZone)],
          ...(alert.peak !== null
            ? ([
                [`Prévision ${predicted.direction === 'above' ? 'au plus haut' : 'au plus bas'}`, formatMeasure(alert.key, alert.peak)],
              ] as [string, string][])
            : []),
        ]
      : peakFirst
        ? [['Dernière valeur', alertValue(alert)]]
        : [];
  // A task of the food-safety plan or a timed process: no rule and no measure, a finding.
  const plan = Boolean(alert.taskId || alert.processId);
  const facts: [string, string][] = [
    ...values,
    ...(plan
      ? []
      : ([['Règle', rule ? `${rule.name} · ${SCHEDULE_LABELS[rule.schedule]}` : rule === null ? '—' : '…']] as [string, string][])),
    ['Ouverte le', formatDateTime(alert.openedAt)],
    ...(alert.resolvedAt ? ([['Résolue le', formatDateTime(alert.resolvedAt)]] as [string, string][]) : []),
    ['Site', siteName ?? '—'],
  ];
  // What is allowed, not what triggers: « Limite autorisée : Température ≤ +8,0 °C ».
  const limit = rule ? describeCondition(rule.condition) : rule === null ? 'Règle supprimée' : '…';

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(18rem,22rem)] lg:items-start">
      <div className="min-w-0 space-y-6">
        <div
          className={`rounded-2xl border p-5 sm:p-6 ${alert.status === 'open' ? 'border-red-400/50 bg-red-500/10' : 'border-white/10 bg-slate-900/60'}`}
        >
          {/* Announced when it changes: acknowledged here, or resolved by itself while the page is open. */}
          <div className="flex flex-wrap items-center gap-2" aria-live="polite">
            <AlertStatusBadge status={alert.status} />
            <SeverityBadge severity={alert.severity} />
            {predicted && <PredictedBadge />}
            {fromNotification && (
              <span data-testid="acknowledged-from-notification" className="text-sm text-slate-200">
                {fromNotification}
              </span>
            )}
          </div>
          <h1 className="mt-3 text-2xl font-bold tracking-tight text-white [overflow-wrap:anywhere]">{sensorName}</h1>
          {sensorLink && (
            <Link
              to={sensorLink.to}
              state={sensorLink.state}
              className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-cyan-200 underline-offset-4 hover:text-cyan-100 hover:underline"
            >
              {alert.deviceKind === 'emitter' ? 'Voir l’émetteur' : 'Voir le capteur'}
              <ChevronRight className="size-4" aria-hidden="true" />
            </Link>
          )}
          <div data-testid="alert-summary" className="mt-3 flex flex-wrap items-end gap-x-8 gap-y-3">
            <Figure label={predicted ? 'Dernière mesure' : peakFirst ? worst : alert.key === null ? 'État' : 'Dernière valeur'}>
              <p data-testid="alert-value" className={`text-4xl font-bold ${red ? 'text-red-300' : 'text-slate-100'}`}>
                {peakFirst ? peak : alertValue(alert, reading)}
                {predicted && (
                  <>
                    {' '}
                    <span className="ml-1 text-base font-medium text-slate-300">{reading ? 'mesurés' : 'aucune mesure connue'}</span>
                  </>
                )}
              </p>
            </Figure>
            {!peakFirst && peak !== null && (
              <Figure label={worst}>
                <p data-testid="alert-peak" className="text-2xl font-semibold text-slate-100">
                  {peak}
                </p>
              </Figure>
            )}
            <Figure label="Durée">
              <p data-testid="alert-duration" className="text-2xl font-semibold text-slate-100">
                {alert.resolvedAt ? `a duré ${duration}` : `depuis ${duration}`}
              </p>
            </Figure>
          </div>
          {predicted && alert.key && (
            <p className="mt-2 text-base">
              <ForecastLabel measureKey={alert.key} forecast={predicted} now={now} timeZone={timeZone} />
              <span className="ml-2 text-sm text-slate-400">une prévision, pas une mesure</span>
            </p>
          )}
          <p data-testid="alert-limit" className="mt-3 text-sm">
            <span className="text-slate-400">{`${plan ? 'Constat' : predicted ? 'Limite' : 'Limite autorisée'}\u202F:`}</span>{' '}
            <span className="font-medium text-slate-100">{plan ? planAlertFinding(alert) : limit}</span>
          </p>
          <dl className="mt-4 grid gap-x-6 gap-y-2 border-t border-white/10 pt-4 text-sm sm:grid-cols-2">
            {facts.map(([term, value]) => (
              <div key={term} className="flex gap-2">
                <dt className="shrink-0 text-slate-400">{`${term}\u202F:`}</dt>
                <dd className="min-w-0 font-medium text-slate-100 [overflow-wrap:anywhere]">{value}</dd>
              </div>
            ))}
          </dl>
        </div>

        {chart && alert.key !== null && (
          <AlertCurve alert={alert} measureKey={alert.key} rule={rule} now={now} timeZone={timeZone} chart={chart} />
        )}

        <AlertActSections alert={alert} manage={manage} canAcknowledge={canAcknowledge} />
      </div>

      <AlertTimeline alert={alert} who={who} />
    </div>
  );
}
