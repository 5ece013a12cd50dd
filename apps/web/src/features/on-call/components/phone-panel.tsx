import type { MyPhoneResponse } from '@vigie/contract';
import { MessageSquareText, MoonStar, ShieldCheck, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { usePhone, useRemovePhone, useSetPhone, useSetQuietHours, useVerifyPhone } from '../api/phone';
import { FieldLabel } from '@/components/ui/field-label';

const pill = 'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold';

/** The number, its code, its removal: one status line for the three, which stays when a form goes. */
function PhoneForms({ mine }: { mine: MyPhoneResponse }) {
  const send = useSetPhone();
  const verify = useVerifyPhone();
  const remove = useRemovePhone();
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const ids = { number: useId(), code: useId(), status: useId(), sms: useId() };
  const { phone, channels } = mine;
  const pending = phone !== null && !phone.verified;

  const report = (message: string | null, failed = false) => {
    setError(failed ? message : null);
    setSuccess(failed ? null : message);
  };

  const onSend = (event: FormEvent) => {
    event.preventDefault();
    if (!number.trim()) return report('Saisissez votre numéro de portable.', true);
    report(null);
    send.mutate(number.trim(), {
      onSuccess: (saved) => {
        setNumber('');
        setCode('');
        report(`Code envoyé au ${saved.phone?.display ?? number.trim()}\u202F: saisissez-le ci-dessous.`);
      },
      onError: (failure) => report(errorMessage(failure, 'Le code n’a pas pu être envoyé.'), true),
    });
  };

  const onConfirm = (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) return report('Saisissez les 6 chiffres reçus par SMS.', true);
    report(null);
    verify.mutate(digits, {
      onSuccess: () => {
        setCode('');
        report(`Numéro confirmé\u202F: l’astreinte peut vous envoyer des SMS${channels.call ? ' et vous appeler' : ''}.`);
      },
      onError: (failure) => report(errorMessage(failure, 'Le numéro n’a pas été confirmé.'), true),
    });
  };

  const onRemove = () => {
    report(null);
    remove.mutate(undefined, {
      onSuccess: () => {
        setCode('');
        report('Numéro retiré.');
      },
      onError: (failure) => report(errorMessage(failure, 'Le numéro n’a pas été retiré.'), true),
    });
  };

  return (
    <div className="grid gap-4">
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-300" data-testid="phone-number">
        {phone ? (
          <>
            <span className="font-medium text-white">{phone.display}</span>{' '}
            {phone.verified ? (
              <span className={`${pill} border-emerald-300/40 bg-emerald-400/10 text-emerald-100`}>Confirmé</span>
            ) : (
              <span className={`${pill} border-amber-300/40 bg-amber-400/10 text-amber-100`}>À confirmer</span>
            )}
          </>
        ) : (
          'Aucun numéro enregistré.'
        )}
      </p>
      {!channels.sms && (
        <p id={ids.sms} className="text-sm text-amber-100">
          L’envoi de SMS n’est pas configuré sur ce serveur{'\u202F'}: l’astreinte vous préviendra par notification poussée.
        </p>
      )}
      <form onSubmit={onSend} noValidate className="space-y-1.5">
        <FieldLabel htmlFor={ids.number}>Numéro de portable</FieldLabel>
        <div className="flex flex-wrap items-center gap-3">
          <input
            id={ids.number}
            type="tel"
            autoComplete="tel"
            placeholder="06 12 34 56 78"
            value={number}
            onChange={(event) => setNumber(event.target.value)}
            aria-describedby={channels.sms ? ids.status : `${ids.sms} ${ids.status}`}
            className={`${inputClass} min-w-0 flex-1 sm:max-w-xs`}
          />
          <Button
            type="submit"
            variant="secondary"
            busy={send.isPending}
            disabled={!channels.sms}
            icon={<MessageSquareText className="size-4" aria-hidden="true" />}
          >
            Envoyer un code
          </Button>
        </div>
      </form>
      {pending && (
        <form onSubmit={onConfirm} noValidate className="space-y-1.5">
          <FieldLabel htmlFor={ids.code}>Code reçu par SMS</FieldLabel>
          <div className="flex flex-wrap items-center gap-3">
            <input
              id={ids.code}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              placeholder="123456"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              aria-describedby={ids.status}
              className={`${inputClass} max-w-40 font-mono tracking-widest`}
            />
            <Button type="submit" variant="primary" busy={verify.isPending} icon={<ShieldCheck className="size-4" aria-hidden="true" />}>
              Confirmer
            </Button>
          </div>
        </form>
      )}
      <FormStatus id={ids.status} error={error} success={success} />
      {phone && (
        <div>
          <Button
            variant="danger"
            size="sm"
            busy={remove.isPending}
            onClick={onRemove}
            icon={<Trash2 className="size-4" aria-hidden="true" />}
          >
            Retirer le numéro
          </Button>
        </div>
      )}
    </div>
  );
}

/** « Heures calmes : de 22:00 à 07:00 »: warnings are not pushed then; critical alerts always are. */
function QuietHoursForm({ mine }: { mine: MyPhoneResponse }) {
  const save = useSetQuietHours();
  const [from, setFrom] = useState(mine.quietHours?.from ?? '');
  const [to, setTo] = useState(mine.quietHours?.to ?? '');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const id = useId();
  const ids = { title: `${id}-title`, from: `${id}-from`, fromLabel: `${id}-from-label`, to: `${id}-to`, toLabel: `${id}-to-label` };
  const described = `${id}-hint ${id}-status`;

  const submit = (quietHours: { from: string; to: string } | null) => {
    setError(null);
    setSuccess(null);
    save.mutate(quietHours, {
      onSuccess: () => {
        if (!quietHours) {
          setFrom('');
          setTo('');
        }
        setSuccess(quietHours ? 'Heures calmes enregistrées.' : 'Plus d’heures calmes\u202F: tous les avertissements vous sont poussés.');
      },
      onError: (failure) => setError(errorMessage(failure, 'Les heures calmes n’ont pas été enregistrées.')),
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!from || !to) {
      setSuccess(null);
      return setError('Indiquez le début et la fin des heures calmes, ou choisissez «\u202FAucune\u202F».');
    }
    submit({ from, to });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-3 border-t border-white/10 pt-4">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-200">
        <span id={ids.title} className="font-medium">
          Heures calmes{'\u202F'}:
        </span>
        <span className="flex items-center gap-2">
          <label id={ids.fromLabel} htmlFor={ids.from}>
            de
          </label>
          <input
            id={ids.from}
            type="time"
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            aria-labelledby={`${ids.title} ${ids.fromLabel}`}
            aria-describedby={described}
            className={`${inputClass} max-w-32`}
          />
        </span>
        <span className="flex items-center gap-2">
          <label id={ids.toLabel} htmlFor={ids.to}>
            à
          </label>
          <input
            id={ids.to}
            type="time"
            value={to}
            onChange={(event) => setTo(event.target.value)}
            aria-labelledby={`${ids.title} ${ids.toLabel}`}
            aria-describedby={described}
            className={`${inputClass} max-w-32`}
          />
        </span>
      </div>
      <p id={`${id}-hint`} className="text-sm text-slate-400">
        Pendant ces heures, les avertissements ne vous sont pas poussés{'\u202F'}; les alertes critiques le sont toujours.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          variant="secondary"
          busy={save.isPending && save.variables !== null}
          icon={<MoonStar className="size-4" aria-hidden="true" />}
        >
          Enregistrer
        </Button>
        <Button busy={save.isPending && save.variables === null} onClick={() => submit(null)}>
          Aucune
        </Button>
      </div>
      <FormStatus id={`${id}-status`} error={error} success={success} />
    </form>
  );
}

/** « Mon compte »: the mobile number the on-call ladder texts and calls, confirmed by a code, and the quiet hours. */
export function PhonePanel() {
  const mine = usePhone();
  if (mine.isError) return <Alert size="compact">{errorMessage(mine.error, 'Votre téléphone n’a pas pu être lu.')}</Alert>;
  if (!mine.data)
    return (
      <p role="status" className="text-sm text-slate-300">
        Chargement…
      </p>
    );
  return (
    <div className="grid gap-4" data-testid="phone-panel">
      <PhoneForms mine={mine.data} />
      <QuietHoursForm mine={mine.data} />
    </div>
  );
}
