import { characterCount } from '@vigie/contract/text';
import { useId, useState, type FormEvent } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { errorMessage } from '@/lib/errors';
import { useUpdateDevice } from '../api/update-device';
import { DEVICE_KINDS, type Device, type DeviceKind } from '../device-kinds';
import { inputClass, primaryButtonClass } from '@/components/ui/section';
import { FieldLabel } from '@/components/ui/field-label';

const NAME_MAX = 100;

/** The French reason a name is refused before it is sent, or null. */
export function nameError(name: string): string | null {
  if (!name.trim()) return 'Le nom est obligatoire.';
  if (characterCount(name.trim()) > NAME_MAX) return `Le nom ne doit pas dépasser ${NAME_MAX} caractères.`;
  return null;
}

export function RenameForm({ kind, device }: { kind: DeviceKind; device: Device }) {
  const [name, setName] = useState(device.name);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useUpdateDevice({ kind, id: device.id });
  const inputId = useId();
  const messageId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const invalid = nameError(name);
    setError(invalid);
    if (invalid) return;
    update.mutate(
      { name: name.trim() },
      {
        onSuccess: (device) => {
          setName(device.name);
          setSaved(true);
        },
        onError: (failure) => setError(errorMessage(failure, DEVICE_KINDS[kind].fallbacks.update)),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <FieldLabel htmlFor={inputId}>Nom de l’appareil</FieldLabel>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setSaved(false);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={messageId}
          autoComplete="off"
          className={inputClass}
        />
        <button
          type="submit"
          disabled={update.isPending}
          aria-busy={update.isPending || undefined}
          className={`${primaryButtonClass} shrink-0`}
        >
          {update.isPending ? 'Enregistrement…' : 'Renommer'}
        </button>
      </div>
      <FormStatus id={messageId} error={error} success={saved && 'Nom enregistré.'} />
    </form>
  );
}
