import { useId, useState, type FormEvent } from 'react';
import { FormStatus } from '@/components/ui/form-status';
import { errorMessage } from '@/lib/errors';
import { useUpdateDevice } from '../api/update-device';
import { DEVICE_KINDS, type Device, type DeviceKind } from '../device-kinds';
import { inputClass, secondaryButtonClass } from '@/components/ui/section';
import { FieldLabel } from '@/components/ui/field-label';

// The contract's bounds, repeated here: importing values from the contract would bring zod into the page.
const INACTIVITY_TIMEOUT_MIN_SECONDS = 30;
const INACTIVITY_TIMEOUT_MAX_SECONDS = 7 * 24 * 3600;

const UNITS = {
  seconds: { label: 'secondes', factor: 1 },
  minutes: { label: 'minutes', factor: 60 },
  hours: { label: 'heures', factor: 3600 },
};
type Unit = keyof typeof UNITS;

function initialUnit(seconds: number): Unit {
  if (seconds % 3600 === 0) return 'hours';
  if (seconds % 60 === 0) return 'minutes';
  return 'seconds';
}

/** How long a device may stay silent before it shows « Hors ligne ». */
export function OfflineDelayForm({ kind, device }: { kind: DeviceKind; device: Device }) {
  const [unit, setUnit] = useState<Unit>(() => initialUnit(device.inactivityTimeoutSeconds));
  const [amount, setAmount] = useState(() =>
    String(device.inactivityTimeoutSeconds / UNITS[initialUnit(device.inactivityTimeoutSeconds)].factor),
  );
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const update = useUpdateDevice({ kind, id: device.id });
  const amountId = useId();
  const unitId = useId();
  const messageId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const value = Number(amount.replace(',', '.'));
    const seconds = Math.round(value * UNITS[unit].factor);
    if (!amount.trim() || !Number.isFinite(value) || seconds < INACTIVITY_TIMEOUT_MIN_SECONDS || seconds > INACTIVITY_TIMEOUT_MAX_SECONDS) {
      setError(`Choisissez un délai entre ${INACTIVITY_TIMEOUT_MIN_SECONDS}\u00A0secondes et 7\u00A0jours.`);
      return;
    }
    setError(null);
    update.mutate(
      { inactivityTimeoutSeconds: seconds },
      {
        onSuccess: () => setSaved(true),
        onError: (failure) => setError(errorMessage(failure, DEVICE_KINDS[kind].fallbacks.update)),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <div className="w-28">
          <FieldLabel htmlFor={amountId}>Délai</FieldLabel>
          <input
            id={amountId}
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={messageId}
            className={`${inputClass} mt-1`}
          />
        </div>
        <div>
          <FieldLabel htmlFor={unitId}>Unité</FieldLabel>
          <select id={unitId} value={unit} onChange={(event) => setUnit(event.target.value as Unit)} className={`${inputClass} mt-1`}>
            {Object.entries(UNITS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={update.isPending} aria-busy={update.isPending || undefined} className={secondaryButtonClass}>
          {update.isPending ? 'Enregistrement…' : 'Enregistrer le délai'}
        </button>
      </div>
      <FormStatus id={messageId} error={error} success={saved && 'Délai enregistré.'} />
    </form>
  );
}
