import { useId, useRef, useState, type FormEvent } from 'react';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { useSaveCodec, useTestCodec } from '../api/lorawan-mutations';

const NNBSP = '\u202F';

type Fields = { source: string; payloadHex: string; fPort: string };
type Invalid = { field: keyof Fields | 'name'; message: string };
export type CodecField = Invalid['field'];

/** The fPort typed, or why it cannot be sent; empty is the default port (1). */
function portOf(text: string): { fPort?: number } | string {
  const trimmed = text.trim();
  if (!trimmed) return {};
  const port = Number(trimmed);
  if (!Number.isInteger(port) || port < 1 || port > 223) return 'Le port LoRaWAN est un nombre de 1 à 223.';
  return { fPort: port };
}

/**
 * The pasted codec's two forms as one state: the code, the sample frame and its port (tried, then
 * saved with a name), the field at fault (focused and explained), and the two requests. A result
 * belongs to the code and frame it was tried on.
 */
export function usePastedCodecForm() {
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

  const editName = (value: string) => {
    setName(value);
    if (invalid?.field === 'name') setInvalid(null);
  };

  return {
    ids,
    tryCodec,
    save,
    fields,
    name,
    saveError,
    sourceRef,
    payloadRef,
    portRef,
    nameRef,
    edit,
    editName,
    isInvalid: (field: CodecField) => invalid?.field === field,
    fieldError,
    describedBy,
    onTry,
    onSave,
  };
}

/** What the pasted codec's forms read and do. */
export type PastedCodecFormState = ReturnType<typeof usePastedCodecForm>;
