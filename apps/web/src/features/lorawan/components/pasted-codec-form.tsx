import { FlaskConical, Save } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { CodecResult } from './codec-result';
import { usePastedCodecForm, type CodecField, type PastedCodecFormState } from './use-pasted-codec-form';

const NNBSP = '\u202F';
/** Milesight's EM300-TH example frame: 92 % battery, 30.8 °C, 50.5 %. */
const SAMPLE_FRAME = '01755c03673401046865';
const CODE_PLACEHOLDER = `function decodeUplink(input) {
  return { data: { temperature: input.bytes[0] / 10 } };
}`;

/** A pasted codec tried on a sample frame, then saved with a name: two forms on one state. */
export function PastedCodecForm() {
  const form = usePastedCodecForm();
  return (
    <div className="space-y-5">
      <TryCodecForm form={form} />
      <SaveCodecForm form={form} />
    </div>
  );
}

/** Why a field is refused, under it; its id is the one the field's `aria-describedby` names. */
function FieldError({ form, field }: { form: PastedCodecFormState; field: CodecField }) {
  const message = form.fieldError(field);
  return message ? (
    <p id={`${form.ids}-${field}-error`} className="text-sm text-red-200">
      {message}
    </p>
  ) : null;
}

/** « Essayer un décodeur »: the code, a sample frame and its port, tried in the server's sandbox. */
function TryCodecForm({ form }: { form: PastedCodecFormState }) {
  const { ids, tryCodec, fields, sourceRef, payloadRef, portRef, edit, isInvalid, describedBy, onTry } = form;
  return (
    <form onSubmit={onTry} noValidate aria-labelledby={`${ids}-try-title`} className="space-y-4">
      <h3 id={`${ids}-try-title`} className="text-base font-semibold text-white">
        Essayer un décodeur
      </h3>
      <div className="space-y-1.5">
        <FieldLabel htmlFor={`${ids}-source`}>Code du décodeur</FieldLabel>
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
          aria-invalid={isInvalid('source') || undefined}
          aria-describedby={describedBy('source', `${ids}-source-hint`)}
          onChange={(event) => edit('source', event.target.value)}
          className={`${inputClass} min-h-40 resize-y font-mono text-xs leading-relaxed`}
        />
        <p id={`${ids}-source-hint`} className="text-xs text-slate-400">
          Le code JavaScript publié par le fabricant, avec sa fonction <code className="font-mono text-slate-300">decodeUplink</code>,{' '}
          <code className="font-mono text-slate-300">Decode</code> ou <code className="font-mono text-slate-300">Decoder</code>
          {NNBSP}; 64{'\u00A0'}Kio au plus.
        </p>
        <FieldError form={form} field="source" />
      </div>

      <div className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,10rem)]">
        <div className="space-y-1.5">
          <FieldLabel htmlFor={`${ids}-payloadHex`}>Trame d’essai (hexadécimal)</FieldLabel>
          <input
            ref={payloadRef}
            id={`${ids}-payloadHex`}
            value={fields.payloadHex}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            placeholder={SAMPLE_FRAME}
            aria-invalid={isInvalid('payloadHex') || undefined}
            aria-describedby={describedBy('payloadHex', `${ids}-payloadHex-hint`)}
            onChange={(event) => edit('payloadHex', event.target.value)}
            className={`${inputClass} h-11 font-mono`}
          />
          <p id={`${ids}-payloadHex-hint`} className="text-xs text-slate-400">
            Par exemple celle d’un appareil détecté, ou l’exemple du fabricant.
          </p>
          <FieldError form={form} field="payloadHex" />
        </div>
        <div className="space-y-1.5">
          <FieldLabel htmlFor={`${ids}-fPort`}>Port (fPort)</FieldLabel>
          <input
            ref={portRef}
            id={`${ids}-fPort`}
            type="number"
            inputMode="numeric"
            min={1}
            max={223}
            value={fields.fPort}
            placeholder="1"
            aria-invalid={isInvalid('fPort') || undefined}
            aria-describedby={describedBy('fPort', `${ids}-fPort-hint`)}
            onChange={(event) => edit('fPort', event.target.value)}
            className={`${inputClass} h-11`}
          />
          <p id={`${ids}-fPort-hint`} className="text-xs text-slate-400">
            Laissé vide{NNBSP}: 1.
          </p>
          <FieldError form={form} field="fPort" />
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
  );
}

/** « Enregistrer le décodeur »: a name, and the code tried again by the server before it is kept. */
function SaveCodecForm({ form }: { form: PastedCodecFormState }) {
  const { ids, save, name, saveError, nameRef, editName, isInvalid, describedBy, onSave } = form;
  return (
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
          <FieldLabel htmlFor={`${ids}-name`}>Nom du décodeur</FieldLabel>
          <input
            ref={nameRef}
            id={`${ids}-name`}
            value={name}
            maxLength={100}
            placeholder="EM300-TH de la réserve"
            aria-invalid={isInvalid('name') || undefined}
            aria-describedby={describedBy('name', `${ids}-save-status`)}
            onChange={(event) => editName(event.target.value)}
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
      <FieldError form={form} field="name" />
      <FormStatus id={`${ids}-save-status`} error={saveError} />
    </form>
  );
}
