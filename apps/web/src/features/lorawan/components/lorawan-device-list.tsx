import type { Codec, LorawanDevice } from '@vigie/contract';
import { AlertTriangle, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { useNow } from '@/hooks/use-now';
import type { CameFromState } from '@/lib/came-from';
import { formatAge, formatDateTime } from '@/lib/measure-format';
import { codecLabel, formatDevEui, formatRssi, formatSnr } from '../lorawan-format';

type LorawanDeviceListProps = {
  devices: LorawanDevice[];
  codecs: Codec[];
  /** The sensor's name, from the sensors the page knows; null for one in the trash. */
  sensorName: (sensorId: string) => string | null;
  sensorPath: (sensorId: string) => string;
  /** Where a sensor's page leads back to: the page showing this list. */
  linkState?: CameFromState;
};

/** The registered devices: their codec, their last frame and how well the network heard it, and why it could not be read. */
export function LorawanDeviceList({ devices, codecs, sensorName, sensorPath, linkState }: LorawanDeviceListProps) {
  const now = useNow();
  if (devices.length === 0) {
    return (
      <p className="text-sm text-slate-300">
        Aucun appareil LoRaWAN ajouté pour l’instant. Adoptez un nouvel appareil détecté pour qu’il apparaisse ici.
      </p>
    );
  }
  const codecOf = new Map(codecs.map((codec) => [codec.id, codecLabel(codec)]));

  return (
    <ul className="divide-y divide-white/10" aria-label="Appareils LoRaWAN">
      {devices.map((device) => {
        const name = sensorName(device.sensorId);
        const signal = [
          device.rssi === null ? null : `RSSI ${formatRssi(device.rssi)}`,
          device.snr === null ? null : `SNR ${formatSnr(device.snr)}`,
        ].filter((part): part is string => part !== null);
        return (
          <li key={device.devEui} data-testid="lorawan-device" className="space-y-2 py-4 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
              {name === null ? (
                <span className="font-medium text-slate-300">Capteur dans la corbeille</span>
              ) : (
                <Link
                  to={sensorPath(device.sensorId)}
                  state={linkState}
                  className="inline-flex min-w-0 items-center gap-1 font-medium [overflow-wrap:anywhere] text-cyan-200 underline-offset-4 hover:text-cyan-100 hover:underline"
                >
                  {name}
                  <ChevronRight className="size-4 shrink-0" aria-hidden="true" />
                </Link>
              )}
              <span className="font-mono text-sm text-slate-200">{formatDevEui(device.devEui)}</span>
            </div>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
              <dt className="text-slate-400">Décodeur</dt>
              <dd className="[overflow-wrap:anywhere] text-slate-100">{codecOf.get(device.codec) ?? device.codec}</dd>
              <dt className="text-slate-400">Dernière trame</dt>
              <dd className="text-slate-100">
                {device.lastUplinkAt ? (
                  <time dateTime={device.lastUplinkAt} title={formatDateTime(device.lastUplinkAt)}>
                    {formatAge(device.lastUplinkAt, now)}
                  </time>
                ) : (
                  'Aucune pour l’instant'
                )}
              </dd>
              <dt className="text-slate-400">Signal</dt>
              <dd data-testid="lorawan-signal" className="[overflow-wrap:anywhere] text-slate-100">
                {signal.length > 0 ? signal.join(' · ') : '—'}
              </dd>
              <dt className="text-slate-400">Passerelle</dt>
              <dd data-testid="lorawan-gateway" className="font-mono [overflow-wrap:anywhere] text-slate-100">
                {device.gateway ? formatDevEui(device.gateway) : '—'}
              </dd>
            </dl>
            {device.lastError && (
              <p className="flex items-start gap-2 rounded-xl border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-100">
                <AlertTriangle className="mt-0.5 size-4 shrink-0 text-red-300" aria-hidden="true" />
                <span className="min-w-0 [overflow-wrap:anywhere]">
                  Dernière trame illisible{'\u202F'}: {device.lastError}
                </span>
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
