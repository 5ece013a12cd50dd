import { Thermometer } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { CheckForm, type SensorOption } from '@/features/checks/components/check-form';
import { CheckList } from '@/features/checks/components/check-list';
import { useDevices } from '@/features/devices/api/get-devices';
import { deviceDisplayName } from '@/features/devices/device-kinds';
import { useSites } from '@/features/sites/api/get-sites';
import { errorMessage } from '@/lib/errors';
import { LOAD_ERROR } from '@/lib/fallback-text';

/**
 * /dashboard/controles: the temperatures taken by hand — a product probed, a delivery at
 * reception, a unit whose sensor is down — noted by anyone, and listed newest first.
 */
export default function ChecksRoute() {
  const sites = useSites();
  const devices = useDevices({ kind: 'sensor' });
  const [params, setParams] = useSearchParams();
  // The shop the list shows is in the address (?site=…), so that a link or a reload keeps it.
  const siteId = params.get('site');
  const sensors: SensorOption[] | undefined = devices.data?.map((device) => ({
    id: device.id,
    name: deviceDisplayName(device),
    siteId: device.siteId,
  }));
  const sensorName = (id: string) => sensors?.find((sensor) => sensor.id === id)?.name ?? 'Capteur supprimé';
  const onSiteChange = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('site', id);
        else next.delete('site');
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <title>{`Contrôles manuels · ${PRODUCT_NAME}`}</title>
      <div className="mb-6 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <Thermometer className="size-7 text-cyan-300" aria-hidden="true" />
          Contrôles manuels
        </h1>
        <p className="mt-3 text-slate-300">
          Les températures prises à la main{'\u202F'}: un produit à la sonde, une livraison à la réception, un meuble dont le capteur ne
          répond pas. Chaque contrôle garde qui l’a pris et quand.
        </p>
      </div>
      <div className="space-y-8">
        {sites.isError && <Alert>{errorMessage(sites.error, LOAD_ERROR)}</Alert>}
        <CheckForm
          sites={sites.data ?? []}
          // A sensor list that cannot be read leaves « Relevé manuel d’un meuble » without a unit to choose.
          sensors={devices.isError ? [] : sensors}
          defaultSiteId={siteId}
          // A check saved in another shop than the one listed: the list follows it, so that it shows.
          onSaved={(saved) => {
            if (siteId && saved !== siteId) onSiteChange(saved);
          }}
        />
        <CheckList sites={sites.data ?? []} siteId={siteId} onSiteChange={onSiteChange} sensorName={sensorName} />
      </div>
    </>
  );
}
