import { useQuery } from '@tanstack/react-query';
import type { IntegrationHealth, IntegrationRefusalReason } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { LOAD_ERROR } from '@/lib/fallback-text';
import { formatAge, formatDateTime } from '@/lib/measure-format';
import { lorawanKeys } from '../api/lorawan-keys';
import { formatDevEui } from '../lorawan-format';

/** Why a message was refused, in French (docs/api.md, Santé d'une intégration). */
export const REFUSAL_REASON_LABELS: Record<IntegrationRefusalReason, string> = {
  bad_secret: 'Secret absent ou faux',
  malformed: 'Message mal formé',
  bad_dev_eui: 'DevEUI invalide',
  unknown_device: 'Appareil inconnu',
  undecodable: 'Trame illisible',
};

/** endpoints.integrations.health: the integration's last message, its messages over 24 h and its last refusals. */
async function getIntegrationHealth(id: string, { signal }: { signal?: AbortSignal } = {}): Promise<IntegrationHealth> {
  const health = (await call(endpoints.integrations.health, { params: { id }, signal }))?.health;
  if (!health || !Array.isArray(health.refused)) throw new Error(LOAD_ERROR);
  return health;
}

/** One integration's health, read again every minute while the page is open. */
export function IntegrationHealthPanel({ integrationId, name }: { integrationId: string; name: string }) {
  const owner = useOwner();
  const health = useQuery({
    queryKey: [...lorawanKeys.integrations(owner), integrationId, 'health'],
    queryFn: ({ signal }) => getIntegrationHealth(integrationId, { signal }),
    enabled: Boolean(owner),
    refetchInterval: 60_000,
  });
  if (health.isError) return <p className="text-sm text-rose-200">Santé de l’intégration indisponible pour l’instant.</p>;
  if (!health.data) return <p className="text-sm text-slate-400">Santé de l’intégration…</p>;
  // Ages are told from when the health was read (read again every minute).
  return <IntegrationHealthView health={health.data} name={name} now={health.dataUpdatedAt} />;
}

/** The last message (how long ago), the messages of the last 24 hours, and the refused ones with their reason. */
export function IntegrationHealthView({ health, name, now }: { health: IntegrationHealth; name: string; now: number }) {
  const messages = health.perHour.reduce((sum, hour) => sum + hour.messages, 0);
  const refused = health.perHour.reduce((sum, hour) => sum + hour.refused, 0);
  const count = (value: number, one: string, many: string) => `${value.toLocaleString('fr-FR')}\u00A0${value > 1 ? many : one}`;
  return (
    <section data-testid="integration-health" aria-label={`Santé de l’intégration ${name}`} className="space-y-2 text-sm text-slate-300">
      <p>
        Dernier message reçu{'\u202F'}:{' '}
        {health.lastMessageAt ? (
          <time dateTime={health.lastMessageAt} title={formatDateTime(health.lastMessageAt)}>
            {formatAge(health.lastMessageAt, now)}
          </time>
        ) : (
          'jamais'
        )}{' '}
        · {count(messages, 'message', 'messages')} en 24{'\u00A0'}h
        {refused > 0 && <span className="text-amber-200"> · {count(refused, 'refusé', 'refusés')}</span>}
      </p>
      {health.refused.length > 0 && (
        <details className="rounded-xl border border-white/10 bg-slate-950/40 px-3 py-2">
          <summary className="cursor-pointer font-medium text-white">
            Derniers messages refusés ({health.refused.length.toLocaleString('fr-FR')})
          </summary>
          <ul className="mt-2 divide-y divide-white/10" aria-label={`Messages refusés par l’intégration ${name}`}>
            {health.refused.map((entry, index) => (
              <li key={`${entry.at}-${index}`} data-testid="integration-refusal" className="space-y-0.5 py-2">
                <p className="flex flex-wrap gap-x-2">
                  <span className="font-medium text-amber-200">{REFUSAL_REASON_LABELS[entry.reason]}</span>
                  <time dateTime={entry.at} className="text-slate-400">
                    {formatDateTime(entry.at)}
                  </time>
                  {entry.devEui && (
                    <span className="font-mono text-xs text-slate-300" aria-label={`DevEUI ${formatDevEui(entry.devEui)}`}>
                      {formatDevEui(entry.devEui)}
                    </span>
                  )}
                </p>
                <p className="[overflow-wrap:anywhere]">{entry.message}</p>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
