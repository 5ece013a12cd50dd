import type { Codec, CodecOutcome } from '@vigie/contract';
import { FlaskConical, Save, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { formatDateTime, formatNumber, measureLabel } from '@/lib/measure-format';
import { useDeleteCodec, useSaveCodec, useTestCodec } from '../api/lorawan-mutations';
import { codecMeasuresText, decodedValueText, isPastedCodec } from '../lorawan-format';

const NNBSP = '\u202F';
/** Milesight's EM300-TH example frame: 92 % battery, 30.8 °C, 50.5 %. */
const SAMPLE_FRAME = '01755c03673401046865';
const CODE_PLACEHOLDER = `function decodeUplink(input) {
  return { data: { temperature: input.bytes[0] / 10 } };
}`;

type Fields = { source: string; payloadHex: string; fPort: string };
type Invalid = { field: keyof Fields | 'name'; message: string };

/** The fPort typed, or why it cannot be sent; empty is the default port (1). */
function portOf(text: string): { fPort?: number } | string {
  const trimmed = text.trim();
  if (!trimmed) return {};
  const port = Number(trimmed);
  if (!Number.isInteger(port) || port < 1 || port > 223) return 'Le port LoRaWAN est un nombre de 1 à 223.';
  return { fPort: port };
}

/**
 * « Décodeurs collés »: the decoder a maker publishes (LoRa Alliance TS013, `decodeUplink(input)`)
 * pasted, tried on a sample frame in the server's sandbox, saved for the organization, and then
 * offered with the built-in codecs when a device is adopted.
 */
export function PastedCodecs({ codecs }: { codecs: Codec[] }) {
  const pasted = codecs.filter(isPastedCodec);
  return (
    <div className="space-y-6">
      <PastedCodecForm />
      <PastedCodecList codecs={pasted} />
    </div>
  );
}

function PastedCodecForm() {
  const ids = useId();
  const tryCodec = useTestCodec();
  const save = useSaveCodec();
  const [fields, setFields] = useState<Fields>({ source: '', payloadHex: '', fPort: '' });
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState<Invalid | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const sourceRef = useRef<HTMLTextAreaElement>(null);
  const payloadRef = useRef<HTMLInputElement>(null);
  const portRef = useRef<HTMLInputElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const focus = (field: Invalid['field']) => {
    const refs = { source: sourceRef, payloadHex: payloadRef, fPort: portRef, name: nameRef };
    refs[field].current?.focus();
  };

  // A result belongs to the code and the frame it was tried on: editing them puts it away.
  const edit = (field: keyof Fields, value: string) => {
    setFields((current) => ({ ...current, [field]: value }));
    if (invalid?.field === field) setInvalid(null);
    tryCodec.reset();
  };

  /** The request the fields make, or null once the first wrong field is focused and explained. */
  const request = (): ({ source: string; payloadHex: string } & { fPort?: number }) | null => {
    const fail = (field: keyof Fields, message: string) => {
      setInvalid({ field, message });
      focus(field);
      return null;
    };
    if (!fields.source.trim()) return fail('source', 'Collez le code du décodeur.');
    if (!fields.payloadHex.trim()) return fail('payloadHex', 'Saisissez une trame d’essai en hexadécimal.');
    const port = portOf(fields.fPort);
    if (typeof port === 'string') return fail('fPort', port);
    setInvalid(null);
    return { source: fields.source, payloadHex: fields.payloadHex, ...port };
  };

  const onTry = (event: FormEvent) => {
    event.preventDefault();
    if (tryCodec.isPending) return;
    const body = request();
    if (body) tryCodec.mutate(body);
  };

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    setSaveError(null);
    const body = request();
    if (!body) return;
    const chosen = name.trim();
    if (!chosen) {
      setInvalid({ field: 'name', message: `Donnez un nom au décodeur, par exemple «${NNBSP}EM300-TH de la réserve${NNBSP}».` });
      focus('name');
      return;
    }
    save.mutate(
      { ...body, name: chosen },
      {
        onSuccess: (codec) => {
          setFields({ source: '', payloadHex: '', fPort: '' });
          setName('');
          tryCodec.reset();
          showToast({
            message: `Décodeur «${NNBSP}${codec.model}${NNBSP}» enregistré${NNBSP}: choisissez-le en adoptant un capteur.`,
          });
        },
        onError: (failure) => setSaveError(errorMessage(failure, 'Le décodeur n’a pas été enregistré.')),
      },
    );
  };

  const fieldError = (field: Invalid['field']) => (invalid?.field === field ? invalid.message : null);
  const describedBy = (field: Invalid['field'], hint?: string) =>
    [hint, invalid?.field === field ? `${ids}-${field}-error` : null].filter(Boolean).join(' ') || undefined;
  const errorOf = (field: Invalid['field']) =>
    fieldError(field) ? (
      <p id={`${ids}-${field}-error`} className="text-sm text-red-200">
        {fieldError(field)}
      </p>
    ) : null;

  return (
    <div className="space-y-5">
      <form onSubmit={onTry} noValidate aria-labelledby={`${ids}-try-title`} className="space-y-4">
        <h3 id={`${ids}-try-title`} className="text-base font-semibold text-white">
          Essayer un décodeur
        </h3>
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-source`} className="block text-sm font-medium text-slate-200">
            Code du décodeur
          </label>
          <textarea
            ref={sourceRef}
            id={`${ids}-source`}
            value={fields.source}
            rows={10}
            wrap="off"
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            maxLength={64 * 1024}
            placeholder={CODE_PLACEHOLDER}
            aria-invalid={invalid?.field === 'source' || undefined}
            aria-describedby={describedBy('source', `${ids}-source-hint`)}
            onChange={(event) => edit('source', event.target.value)}
            className={`${inputClass} min-h-40 resize-y font-mono text-xs leading-relaxed`}
          />
          <p id={`${ids}-source-hint`} className="text-xs text-slate-400">
            Le code JavaScript publié par le fabricant, avec sa fonction{' '}
            <code className="font-mono text-slate-300">decodeUplink(input)</code>
            {NNBSP}; 64{'\u00A0'}Kio au plus.
          </p>
          {errorOf('source')}
        </div>

        <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,10rem)]">
          <div className="space-y-1.5">
            <label htmlFor={`${ids}-payloadHex`} className="block text-sm font-medium text-slate-200">
              Trame d’essai (hexadécimal)
            </label>
            <input
              ref={payloadRef}
              id={`${ids}-payloadHex`}
              value={fields.payloadHex}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              placeholder={SAMPLE_FRAME}
              aria-invalid={invalid?.field === 'payloadHex' || undefined}
              aria-describedby={describedBy('payloadHex', `${ids}-payloadHex-hint`)}
              onChange={(event) => edit('payloadHex', event.target.value)}
              className={`${inputClass} h-11 font-mono`}
            />
            <p id={`${ids}-payloadHex-hint`} className="text-xs text-slate-400">
              Par exemple celle d’un appareil détecté, ou l’exemple du fabricant.
            </p>
            {errorOf('payloadHex')}
          </div>
          <div className="space-y-1.5">
            <label htmlFor={`${ids}-fPort`} className="block text-sm font-medium text-slate-200">
              Port (fPort)
            </label>
            <input
              ref={portRef}
              id={`${ids}-fPort`}
              type="number"
              inputMode="numeric"
              min={1}
              max={223}
              value={fields.fPort}
              placeholder="1"
              aria-invalid={invalid?.field === 'fPort' || undefined}
              aria-describedby={describedBy('fPort', `${ids}-fPort-hint`)}
              onChange={(event) => edit('fPort', event.target.value)}
              className={`${inputClass} h-11`}
            />
            <p id={`${ids}-fPort-hint`} className="text-xs text-slate-400">
              Laissé vide{NNBSP}: 1.
            </p>
            {errorOf('fPort')}
          </div>
        </div>

        <Button type="submit" variant="secondary" busy={tryCodec.isPending} icon={<FlaskConical className="size-4" aria-hidden="true" />}>
          {tryCodec.isPending ? 'Essai…' : 'Essayer'}
        </Button>

        <div aria-live="polite" data-testid="codec-result">
          {tryCodec.isError ? (
            <Alert size="compact">{errorMessage(tryCodec.error, 'Le décodeur n’a pas pu être essayé.')}</Alert>
          ) : tryCodec.data ? (
            <CodecResult outcome={tryCodec.data} />
          ) : null}
        </div>
      </form>

      <form onSubmit={onSave} noValidate aria-labelledby={`${ids}-save-title`} className="space-y-3 border-t border-white/10 pt-5">
        <h3 id={`${ids}-save-title`} className="text-base font-semibold text-white">
          Enregistrer le décodeur
        </h3>
        <p className="text-sm text-slate-300">
          Le serveur l’essaie encore sur la trame ci-dessus{NNBSP}; enregistré, il est proposé parmi les décodeurs quand vous adoptez un
          capteur.
        </p>
        <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,1fr)_auto]">
          <div className="space-y-1.5">
            <label htmlFor={`${ids}-name`} className="block text-sm font-medium text-slate-200">
              Nom du décodeur
            </label>
            <input
              ref={nameRef}
              id={`${ids}-name`}
              value={name}
              maxLength={100}
              placeholder="EM300-TH de la réserve"
              aria-invalid={invalid?.field === 'name' || undefined}
              aria-describedby={describedBy('name', `${ids}-save-status`)}
              onChange={(event) => {
                setName(event.target.value);
                if (invalid?.field === 'name') setInvalid(null);
              }}
              className={`${inputClass} h-11`}
            />
          </div>
          <Button
            type="submit"
            variant="primary"
            busy={save.isPending}
            icon={<Save className="size-4" aria-hidden="true" />}
            className="h-11 sm:self-end"
          >
            {save.isPending ? 'Enregistrement…' : 'Enregistrer le décodeur'}
          </Button>
        </div>
        {errorOf('name')}
        <FormStatus id={`${ids}-save-status`} error={saveError} />
      </form>
    </div>
  );
}

/** What the codec made of the frame: its values (label and unit when Vigie knows the measure), and its warnings. */
function CodecResult({ outcome }: { outcome: CodecOutcome }) {
  if (!outcome.ok) {
    return <Alert size="compact">{outcome.error}</Alert>;
  }
  const readings = outcome.readings.filter((reading) => Object.keys(reading.values).length > 0);
  return (
    <div className="space-y-3 rounded-xl border border-emerald-300/30 bg-emerald-400/5 p-4">
      <p className="text-sm font-semibold text-emerald-100">
        {readings.length === 0 ? 'Le décodeur n’a rendu aucune valeur.' : 'Trame décodée.'}
      </p>
      {readings.map((reading, index) => {
        const entries = Object.entries(reading.values);
        return (
          <table key={index} className="w-full text-left text-sm" data-testid="codec-values">
            <caption className="mb-1 text-left text-xs text-slate-400">
              {reading.ts ? `Valeurs du ${formatDateTime(reading.ts)}` : `Valeurs décodées (${formatNumber(entries.length, 0)})`}
            </caption>
            <thead>
              <tr className="border-b border-white/10 text-slate-400">
                <th scope="col" className="py-1.5 pr-4 font-medium">
                  Mesure
                </th>
                <th scope="col" className="py-1.5 font-medium">
                  Valeur
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map(([key, value]) => {
                const label = measureLabel(key);
                return (
                  <tr key={key} className="border-b border-white/5 last:border-0">
                    <th scope="row" className="py-1.5 pr-4 align-top font-normal text-slate-200">
                      <span className="[overflow-wrap:anywhere]">{label}</span>
                      {label !== key && <span className="ml-2 font-mono text-xs text-slate-400">{key}</span>}
                    </th>
                    <td className="py-1.5 align-top font-medium [overflow-wrap:anywhere] text-white tabular-nums">
                      {decodedValueText(key, value)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        );
      })}
      {outcome.warnings.length > 0 && (
        <div className="text-sm text-amber-100">
          <p className="font-medium">Avertissements du décodeur{NNBSP}:</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 [overflow-wrap:anywhere]">
            {outcome.warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The organization's pasted codecs, what they read, and their deletion (refused while devices use them). */
function PastedCodecList({ codecs }: { codecs: Codec[] }) {
  const ids = useId();
  const remove = useDeleteCodec();
  const [confirming, setConfirming] = useState<Codec | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onConfirm = () => {
    if (!confirming) return;
    const codec = confirming;
    setError(null);
    remove.mutate(codec.id, {
      onSuccess: () => {
        setConfirming(null);
        showToast({ message: `Décodeur «${NNBSP}${codec.model}${NNBSP}» supprimé.` });
      },
      onError: (failure) => {
        setConfirming(null);
        setError(errorMessage(failure, 'Le décodeur n’a pas été supprimé.'));
      },
    });
  };

  return (
    <div className="space-y-3 border-t border-white/10 pt-5">
      <h3 id={`${ids}-title`} className="text-base font-semibold text-white">
        Décodeurs de l’organisation
      </h3>
      {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
      {codecs.length === 0 ? (
        <p className="text-sm text-slate-300">Aucun décodeur collé pour l’instant.</p>
      ) : (
        <ul className="divide-y divide-white/10" aria-labelledby={`${ids}-title`}>
          {codecs.map((codec) => (
            <li
              key={codec.id}
              data-testid="pasted-codec"
              className="flex flex-wrap items-center justify-between gap-3 py-3 first:pt-0 last:pb-0"
            >
              <div className="min-w-0">
                <p className="font-medium [overflow-wrap:anywhere] text-white">{codec.model}</p>
                <p className="text-sm text-slate-300">
                  {codec.measures.length > 0 ? `Mesures${NNBSP}: ${codecMeasuresText(codec)}` : 'Aucune mesure connue'}
                </p>
              </div>
              <Button
                variant="danger"
                size="sm"
                onClick={() => setConfirming(codec)}
                aria-label={`Supprimer le décodeur ${codec.model}`}
                icon={<Trash2 className="size-4" aria-hidden="true" />}
              >
                Supprimer
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={`Supprimer le décodeur «${NNBSP}${confirming?.model ?? ''}${NNBSP}»${NNBSP}?`}
        confirmLabel={remove.isPending ? 'Suppression…' : 'Supprimer'}
        busy={remove.isPending}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(null)}
      >
        Il ne sera plus proposé à l’adoption d’un capteur. Un décodeur que des appareils utilisent encore ne peut pas être supprimé.
      </ConfirmDialog>
    </div>
  );
}
