import { useQuery } from '@tanstack/react-query';
import type { LoraWanQr } from '@vigie/contract';
import { ArrowRight, LoaderCircle, PackagePlus, RadioTower, RotateCcw } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PRODUCT_NAME } from '@/config/constants';
import { labelRefusal, type LabelledDevice, useCheckLabel, useClaimDevice } from '@/features/claiming/api/claim-device';
import { FirstSignal } from '@/features/claiming/components/first-signal';
import { type InstallChoices, InstallForm } from '@/features/claiming/components/install-form';
import { LabelScanner, type Label } from '@/features/claiming/components/label-scanner';
import { deviceQueryOptions } from '@/features/devices/api/get-device';
import { deviceDetailPath } from '@/features/devices/device-paths';
import type { DeviceKind } from '@/features/devices/device-kinds';
import { formatDevEui } from '@/features/lorawan/lorawan-format';
import { useSites } from '@/features/sites/api/get-sites';
import { ApiError } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { usePermissions } from '@/lib/permissions';
import { LOAD_ERROR } from '@/lib/fallback-text';

type Installed = { kind: DeviceKind; id: string; name: string; installedAt: number };
type Step =
  /** `retry`: back from step 2 after the claim refused the label; its serial is kept and the code typed again. */
  | { step: 'label'; retry?: { serial: string; message: string } }
  | { step: 'choices'; label: Label; device: LabelledDevice }
  | { step: 'waiting'; installed: Installed };

const card = 'rounded-2xl border border-white/10 bg-slate-900/60 p-5 shadow-lg shadow-black/20 backdrop-blur sm:p-6';

/** /dashboard/installer: a person installs a labelled device with a phone — scan, choose, see its first reading. */
export default function InstallDeviceRoute() {
  const [state, setState] = useState<Step>({ step: 'label' });
  const sites = useSites();
  const check = useCheckLabel();
  const claim = useClaimDevice();
  const { manage } = usePermissions();
  // What was chosen at step 2, kept when going back to the label.
  const [choices, setChoices] = useState<InstallChoices | null>(null);

  const retry = state.step === 'label' ? state.retry : undefined;
  const refusal = useMemo(
    () => (check.error ? labelRefusal(check.error) : retry && !check.isPending ? { message: retry.message, field: 'code' as const } : null),
    [check.error, check.isPending, retry],
  );

  const restart = () => {
    check.reset();
    claim.reset();
    setChoices(null);
    setState({ step: 'label' });
  };

  const changeLabel = (label: Label, kept: InstallChoices) => {
    // The label refused by the claim (another organization took the device since the check): the serial stays, the code is typed again.
    const refused = claim.error instanceof ApiError && claim.error.status === 404 && claim.error.message.startsWith('Appareil introuvable');
    const message = refused ? errorMessage(claim.error, '') : '';
    check.reset();
    claim.reset();
    setChoices(kept);
    setState({ step: 'label', ...(refused ? { retry: { serial: label.serial, message } } : {}) });
  };

  return (
    <>
      <title>{`Installer un appareil · ${PRODUCT_NAME}`}</title>
      <div className="mx-auto max-w-xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <PackagePlus className="size-7 text-cyan-300" aria-hidden="true" />
          Installer un appareil
        </h1>
        <p className="mt-3 mb-6 text-slate-200">Trois étapes, depuis votre téléphone&#8239;: l’étiquette, le magasin, le premier signal.</p>
        <div className={card}>
          {!manage ? (
            <p className="text-slate-200">
              Seuls les administrateurs et les responsables de votre organisation installent des appareils. Ceux qu’ils installent
              apparaissent dans votre tableau de bord.
            </p>
          ) : state.step === 'label' ? (
            <LabelScanner
              initialSerial={retry?.serial}
              checking={check.isPending}
              refusal={refusal}
              onIdentified={(label) => {
                if (check.isPending) return;
                check.mutate(label, {
                  onSuccess: (device) => {
                    claim.reset();
                    setState({ step: 'choices', label, device });
                  },
                });
              }}
              lorawanNotice={lorawanNotice}
            />
          ) : state.step === 'choices' ? (
            sites.isError ? (
              <Alert>{errorMessage(sites.error, LOAD_ERROR)}</Alert>
            ) : !sites.data ? (
              <p role="status" className="flex items-center gap-2 text-slate-300">
                <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
                Chargement des magasins…
              </p>
            ) : (
              <InstallForm
                label={state.label}
                device={state.device}
                sites={sites.data}
                busy={claim.isPending}
                error={claim.isError ? errorMessage(claim.error, 'Échec de l’installation : réessayez.') : null}
                initial={choices}
                onBack={(kept) => changeLabel(state.label, kept)}
                onSubmit={(chosen) =>
                  claim.mutate(
                    { serial: state.label.serial, claimCode: state.label.claimCode, ...chosen },
                    {
                      onSuccess: ({ kind, device }) =>
                        setState({
                          step: 'waiting',
                          installed: { kind, id: device.id, name: device.name, installedAt: Date.now() },
                        }),
                    },
                  )
                }
              />
            )
          ) : (
            <WaitForFirstSignal installed={state.installed} onAnother={restart} />
          )}
        </div>
      </div>
    </>
  );
}

/** A LoRaWAN sensor's label (LoRa Alliance TR005): it is added on the LoRaWAN page, its DevEUI filled in. */
function lorawanNotice(sensor: LoraWanQr) {
  return (
    <div data-testid="lorawan-label" className="space-y-3 rounded-2xl border border-cyan-300/40 bg-cyan-400/10 p-4">
      <p className="flex items-start gap-2 font-semibold text-white">
        <RadioTower className="mt-0.5 size-5 shrink-0 text-cyan-300" aria-hidden="true" />
        <span className="min-w-0">
          Capteur LoRaWAN détecté{'\u202F'}: DevEUI <span className="font-mono whitespace-nowrap">{formatDevEui(sensor.devEui)}</span>
        </span>
      </p>
      <p className="text-sm text-slate-200">
        Il s’ajoute sur la page «{'\u202F'}Capteurs LoRaWAN{'\u202F'}», où vous choisissez son décodeur, son magasin et ce qu’il surveille.
      </p>
      <Link
        to={`/dashboard/lorawan?devEui=${sensor.devEui}`}
        className="inline-flex items-center gap-2 rounded-xl bg-gradient-to-r from-cyan-400 to-violet-500 px-4 py-2.5 text-sm font-semibold text-slate-950 shadow-lg shadow-cyan-500/20 hover:from-cyan-300 hover:to-violet-400"
      >
        Ajouter ce capteur LoRaWAN
        <ArrowRight className="size-4" aria-hidden="true" />
      </Link>
    </div>
  );
}

function WaitForFirstSignal({ installed, onAnother }: { installed: Installed; onAnother: () => void }) {
  const owner = useOwner();
  // The live stream updates this device as soon as it speaks; a slow poll covers a stream cut.
  const device = useQuery({
    ...deviceQueryOptions({ kind: installed.kind, id: installed.id, owner }),
    refetchInterval: (query) => (query.state.data?.lastSeenAt ? false : 15_000),
  });
  const latest = device.data?.latest ?? {};
  const heard = Boolean(device.data?.lastSeenAt) || Object.keys(latest).length > 0;
  return (
    <FirstSignal
      name={device.data?.name ?? installed.name}
      heard={heard}
      latest={latest}
      installedAt={installed.installedAt}
      actions={
        <>
          <Link
            to={deviceDetailPath(installed.kind, installed.id)}
            className="inline-flex items-center gap-2 rounded-xl border border-cyan-300/30 bg-cyan-400/10 px-4 py-2.5 text-sm font-semibold text-cyan-100 hover:border-cyan-300/60 hover:bg-cyan-400/20"
          >
            Voir l’appareil
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
          <Button onClick={onAnother}>
            <RotateCcw className="size-4" aria-hidden="true" />
            Installer un autre appareil
          </Button>
        </>
      }
    />
  );
}
