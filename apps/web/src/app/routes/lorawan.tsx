import { endpoints } from '@vigie/contract/routes';
import { LoaderCircle, RadioTower } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { DetailSection } from '@/components/ui/section';
import { showToast } from '@/components/ui/toast';
import { PRODUCT_NAME } from '@/config/constants';
import { useDevices } from '@/features/devices/api/get-devices';
import { deviceDisplayName } from '@/features/devices/device-kinds';
import { deviceDetailPath } from '@/features/devices/device-paths';
import { useCodecs, useIntegrations, useLorawanDevices, usePendingDevices } from '@/features/lorawan/api/get-lorawan';
import { AdoptDialog } from '@/features/lorawan/components/adopt-dialog';
import { IntegrationList } from '@/features/lorawan/components/integration-list';
import { LorawanDeviceList } from '@/features/lorawan/components/lorawan-device-list';
import { NewIntegrationForm } from '@/features/lorawan/components/new-integration-form';
import { PastedCodecs } from '@/features/lorawan/components/pasted-codecs';
import { PendingDeviceList } from '@/features/lorawan/components/pending-device-list';
import { useSites } from '@/features/sites/api/get-sites';
import type { CameFromState } from '@/lib/came-from';
import { errorMessage } from '@/lib/errors';
import { useCan } from '@/lib/permissions';
import { PAGES } from '../navigation/pages';
import { LOAD_ERROR } from '@/lib/fallback-text';

function Loading({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
      <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
      {children}
    </p>
  );
}

/** A sensor opened from the list leads back here (without the query of a label being added). */
const CAME_FROM_HERE: CameFromState = { from: { path: '/dashboard/lorawan', label: PAGES.lorawan.label } };

/**
 * /dashboard/lorawan: the network servers (The Things Stack, ChirpStack, ThingPark, Live Objects,
 * Loriot, Helium) Vigie listens to, the sensors they bring that nobody added yet, and the added
 * ones with their radio signal.
 */
export default function LorawanRoute() {
  const can = useCan();
  const manageIntegrations = can(endpoints.integrations.create);
  const adopt = can(endpoints.lorawan.register) && can(endpoints.lorawan.dismiss);
  const pasteCodecs = can(endpoints.lorawan.testCodec) && can(endpoints.lorawan.saveCodec) && can(endpoints.lorawan.removeCodec);
  const integrations = useIntegrations();
  const pending = usePendingDevices();
  const devices = useLorawanDevices();
  const codecs = useCodecs();
  const sites = useSites();
  const sensors = useDevices({ kind: 'sensor' });
  const navigate = useNavigate();
  const sensorPath = (id: string) => deviceDetailPath('sensor', id);
  // ?devEui=: a sensor whose label was read by the installer, to add by its DevEUI.
  const [searchParams, setSearchParams] = useSearchParams();
  const labelDevEui = searchParams.get('devEui');
  const adding = adopt && labelDevEui !== null ? { devEui: labelDevEui.trim().slice(0, 64), suggestedCodec: null, model: null } : null;
  const closeAdding = () =>
    setSearchParams(
      (params) => {
        params.delete('devEui');
        return params;
      },
      { replace: true },
    );
  // Until the sensors are read, a generic name; a sensor missing from them is in the trash.
  const sensorName = (id: string) => {
    if (!sensors.data) return 'Capteur LoRaWAN';
    const sensor = sensors.data.find((device) => device.id === id);
    return sensor ? deviceDisplayName(sensor) : null;
  };

  return (
    <>
      <title>{`Capteurs LoRaWAN · ${PRODUCT_NAME}`}</title>
      <div className="mb-8 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <RadioTower className="size-7 shrink-0 text-cyan-300" aria-hidden="true" />
          Capteurs LoRaWAN
        </h1>
        <p className="mt-3 text-slate-300">
          Les capteurs LoRaWAN du commerce (Milesight, Elsys, Dragino, Browan, Netvox…) arrivent par votre serveur de réseau{'\u202F'}: The
          Things Stack, ChirpStack, ThingPark, Live Objects, Loriot ou Helium. Reliez-le à Vigie par une intégration, puis adoptez chaque
          capteur qu’il détecte.
        </p>
      </div>

      <div className="space-y-6">
        <DetailSection
          id="integrations-title"
          title="Intégrations"
          description="Les serveurs de réseau qui transmettent les trames de vos capteurs à Vigie."
        >
          <div className="space-y-5">
            {integrations.isError ? (
              <Alert>{errorMessage(integrations.error, LOAD_ERROR)}</Alert>
            ) : !integrations.data ? (
              <Loading>Chargement des intégrations…</Loading>
            ) : (
              <IntegrationList
                integrations={integrations.data}
                canManage={manageIntegrations}
                canSeeHealth={can(endpoints.integrations.health)}
              />
            )}
            {manageIntegrations && <NewIntegrationForm />}
          </div>
        </DetailSection>

        <DetailSection
          id="pending-title"
          title="Nouveaux appareils détectés"
          description="Des capteurs qui émettent vers une de vos intégrations sans avoir été ajoutés. La liste se met à jour toutes les 10 secondes."
        >
          {pending.isError ? (
            <Alert>{errorMessage(pending.error, LOAD_ERROR)}</Alert>
          ) : !pending.data ? (
            <Loading>Chargement des appareils détectés…</Loading>
          ) : (
            <PendingDeviceList
              devices={pending.data}
              codecs={codecs.data ?? []}
              sites={sites.data ?? []}
              integrations={integrations.data ?? []}
              canManage={adopt}
              onOpenSensor={(sensor) => void navigate(sensorPath(sensor.id))}
            />
          )}
        </DetailSection>

        <DetailSection
          id="lorawan-devices-title"
          title="Appareils LoRaWAN"
          description="Les capteurs ajoutés, leur dernière trame et la qualité de sa réception (la meilleure des passerelles qui l’ont entendue)."
        >
          {devices.isError ? (
            <Alert>{errorMessage(devices.error, LOAD_ERROR)}</Alert>
          ) : !devices.data ? (
            <Loading>Chargement des appareils LoRaWAN…</Loading>
          ) : (
            <LorawanDeviceList
              devices={devices.data}
              codecs={codecs.data ?? []}
              sensorName={sensorName}
              sensorPath={sensorPath}
              linkState={CAME_FROM_HERE}
            />
          )}
        </DetailSection>

        {pasteCodecs && (
          <DetailSection
            id="pasted-codecs-title"
            title="Décodeurs collés"
            description={
              <>
                Pour un capteur sans décodeur intégré{'\u202F'}: collez le décodeur que son fabricant publie, sous l’une des trois formes en
                usage (<code className="font-mono text-slate-200">decodeUplink(input)</code> de TS013,{' '}
                <code className="font-mono text-slate-200">Decode(fPort, bytes, variables)</code> de ChirpStack v3,{' '}
                <code className="font-mono text-slate-200">Decoder(bytes, port)</code> de The Things Network v2). Il tourne à part, sans
                accès au serveur, et doit décoder une trame d’essai avant d’être enregistré.
              </>
            }
          >
            {codecs.isError ? (
              <Alert>{errorMessage(codecs.error, LOAD_ERROR)}</Alert>
            ) : !codecs.data ? (
              <Loading>Chargement des décodeurs…</Loading>
            ) : (
              <PastedCodecs codecs={codecs.data} />
            )}
          </DetailSection>
        )}
      </div>

      {adopt && (
        <AdoptDialog
          mode="add"
          device={adding}
          codecs={codecs.data ?? []}
          sites={sites.data ?? []}
          onClose={closeAdding}
          onAdopted={(sensor) => {
            closeAdding();
            showToast({
              message: `Capteur «\u202F${sensor.name}\u202F» ajouté\u202F: sa trame reçue en attente est enregistrée, les suivantes le seront aussi.`,
              action: { label: 'Voir', onClick: () => void navigate(sensorPath(sensor.id)) },
            });
          }}
        />
      )}
    </>
  );
}
