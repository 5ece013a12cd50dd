import type { Codec, PendingLorawanDevice, Sensor, Site } from '@vigie/contract';
import { INSTALL_USES, type InstallUseKey } from '@vigie/contract/presets';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useRegisterLorawanDevice } from '../api/lorawan-mutations';
import { codecLabel, codecMeasuresText, defaultSensorName, formatDevEui, NETWORK_CODEC, suggestedUse } from '../lorawan-format';
import { FieldLabel } from '@/components/ui/field-label';

const USE_KEYS = Object.keys(INSTALL_USES) as InstallUseKey[];

/** What is known of the device to add: a detected one's model and suggested codec, or a DevEUI read on its label alone. */
type DeviceToAdd = Pick<PendingLorawanDevice, 'devEui' | 'suggestedCodec' | 'model'>;

type AdoptDialogProps = {
  /** The detected device being adopted; null: the dialog is closed. */
  device: DeviceToAdd | null;
  codecs: Codec[];
  sites: Site[];
  onClose: () => void;
  onAdopted: (sensor: Sensor) => void;
  /**
   * `add`: « Ajouter un capteur LoRaWAN » by a DevEUI read on its label, shown in a field that can
   * be corrected, the codec chosen by the person; `adopt` (default): a detected device.
   */
  mode?: 'adopt' | 'add';
};

/** « Adopter » a detected device: everything is prefilled, so that a right suggestion is one more click. */
export function AdoptDialog({ device, codecs, sites, onClose, onAdopted, mode = 'adopt' }: AdoptDialogProps) {
  const register = useRegisterLorawanDevice();
  const formId = useId();
  const close = () => {
    if (register.isPending) return;
    register.reset();
    onClose();
  };
  return (
    <Dialog
      open={device !== null}
      // No-break spaces: the DevEUI never wraps in the middle.
      title={
        !device
          ? ''
          : mode === 'add'
            ? 'Ajouter un capteur LoRaWAN'
            : `Adopter l’appareil ${formatDevEui(device.devEui).replace(/ /g, '\u00A0')}`
      }
      onCancel={close}
      footer={
        <>
          <Button variant="ghost" onClick={close} disabled={register.isPending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={register.isPending}>
            {register.isPending ? 'Ajout…' : 'Ajouter le capteur'}
          </Button>
        </>
      }
    >
      {device && (
        // Keyed by the device (and the lists its choices come from): another device opens with its own suggestions.
        <AdoptForm
          key={`${device.devEui}:${codecs.length}:${sites.length}`}
          formId={formId}
          device={device}
          editableDevEui={mode === 'add'}
          codecs={codecs}
          sites={sites}
          busy={register.isPending}
          onSubmit={(request) => {
            register.mutate(request, {
              onSuccess: (sensor) => {
                register.reset();
                onAdopted(sensor);
              },
            });
          }}
          error={register.isError ? errorMessage(register.error, 'Le capteur n’a pas été ajouté.') : null}
        />
      )}
    </Dialog>
  );
}

type AdoptRequest = { devEui: string; codec: string; name: string; siteId?: string; preset: InstallUseKey };

function AdoptForm({
  formId,
  device,
  editableDevEui,
  codecs,
  sites,
  busy,
  error,
  onSubmit,
}: {
  formId: string;
  device: DeviceToAdd;
  editableDevEui: boolean;
  codecs: Codec[];
  sites: Site[];
  busy: boolean;
  error: string | null;
  onSubmit: (request: AdoptRequest) => void;
}) {
  const ids = useId();
  const suggested = codecs.find((codec) => codec.id === device.suggestedCodec);
  const modelName = suggested && suggested.id !== NETWORK_CODEC ? suggested.model : device.model;
  const [devEui, setDevEui] = useState(() => formatDevEui(device.devEui));
  const [name, setName] = useState(() => defaultSensorName(device.devEui, modelName));
  const [codecId, setCodecId] = useState(suggested?.id ?? '');
  const [siteId, setSiteId] = useState(sites[0]?.id ?? '');
  // The use follows the codec until the person chooses one.
  const [chosenUse, setChosenUse] = useState<InstallUseKey | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const codec = codecs.find((candidate) => candidate.id === codecId);
  const preset = chosenUse ?? suggestedUse(codec);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (editableDevEui && !devEui.trim()) return setInvalid('Saisissez le DevEUI du capteur (16 chiffres hexadécimaux).');
    if (!name.trim()) return setInvalid('Donnez un nom au capteur, par exemple «\u202FChambre froide\u202F».');
    if (!codecId) return setInvalid('Choisissez le décodeur de ce modèle de capteur.');
    setInvalid(null);
    onSubmit({
      devEui: editableDevEui ? devEui.trim() : device.devEui,
      codec: codecId,
      name: name.trim(),
      preset,
      ...(siteId ? { siteId } : {}),
    });
  };

  return (
    <form id={formId} onSubmit={submit} noValidate className="mt-2 space-y-4 text-left">
      {editableDevEui && (
        <div className="space-y-1.5">
          <FieldLabel htmlFor={`${ids}-deveui`}>DevEUI</FieldLabel>
          <input
            id={`${ids}-deveui`}
            value={devEui}
            maxLength={64}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => setDevEui(event.target.value)}
            aria-describedby={`${ids}-deveui-hint`}
            className={`${inputClass} font-mono`}
          />
          <p id={`${ids}-deveui-hint`} className="text-xs text-slate-400">
            Lu sur l’étiquette du capteur{'\u202F'}: 16 chiffres hexadécimaux.
          </p>
        </div>
      )}

      <div className="space-y-1.5">
        <FieldLabel htmlFor={`${ids}-name`}>Nom du capteur</FieldLabel>
        <input id={`${ids}-name`} value={name} maxLength={100} onChange={(event) => setName(event.target.value)} className={inputClass} />
      </div>

      <div className="space-y-1.5">
        <FieldLabel htmlFor={`${ids}-codec`}>Décodeur</FieldLabel>
        <select
          id={`${ids}-codec`}
          value={codecId}
          onChange={(event) => setCodecId(event.target.value)}
          aria-describedby={`${ids}-codec-hint`}
          className={inputClass}
        >
          {!suggested && <option value="">Choisissez le modèle…</option>}
          {codecs.map((option) => (
            <option key={option.id} value={option.id}>
              {codecLabel(option)}
            </option>
          ))}
        </select>
        <p id={`${ids}-codec-hint`} className="text-xs text-slate-400">
          {codec
            ? codec.measures.length > 0
              ? `Mesures${'\u202F'}: ${codecMeasuresText(codec)}.`
              : 'Les valeurs décodées par le serveur de réseau, telles quelles.'
            : editableDevEui
              ? 'Le décodeur du modèle de ce capteur, ou un de vos décodeurs collés.'
              : suggested === undefined
                ? 'Modèle inconnu du serveur de réseau.'
                : ''}
          {suggested && codec?.id === suggested.id ? ' Proposé d’après le modèle annoncé par le serveur de réseau.' : ''}
        </p>
      </div>

      {sites.length > 0 && (
        <div className="space-y-1.5">
          <FieldLabel htmlFor={`${ids}-site`}>Magasin</FieldLabel>
          <select id={`${ids}-site`} value={siteId} onChange={(event) => setSiteId(event.target.value)} className={inputClass}>
            {sites.map((site) => (
              <option key={site.id} value={site.id}>
                {site.name}
              </option>
            ))}
          </select>
        </div>
      )}

      <div className="space-y-1.5">
        <FieldLabel htmlFor={`${ids}-use`}>Ce qu’il surveille</FieldLabel>
        <select
          id={`${ids}-use`}
          value={preset}
          onChange={(event) => setChosenUse(event.target.value as InstallUseKey)}
          aria-describedby={`${ids}-use-hint`}
          className={inputClass}
        >
          {USE_KEYS.map((key) => (
            <option key={key} value={key}>
              {INSTALL_USES[key].label}
            </option>
          ))}
        </select>
        <p id={`${ids}-use-hint`} className="text-xs text-slate-400">
          {INSTALL_USES[preset].hint}
        </p>
      </div>

      <FormStatus error={invalid ?? error} />
    </form>
  );
}
