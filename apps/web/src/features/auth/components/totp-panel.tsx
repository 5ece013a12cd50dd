import { Download, KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { TotpSetupResponse } from '@vigie/contract';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { QrCode } from '@/components/qr-code';
import { useAuth } from '@/lib/auth';
import { saveBlob } from '@/lib/download-file';
import { errorMessage } from '@/lib/errors';
import { useRecoveryCodesLeft, useRenewRecoveryCodes, useTotpDisable, useTotpEnable, useTotpSetup } from '../api/totp';
import { FieldLabel } from '@/components/ui/field-label';

/** The secret in groups of four, as authenticator apps show and ask for it. */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

function RecoveryCodes({ codes, email, status, onDone }: { codes: string[]; email: string; status: string; onDone: () => void }) {
  const id = useId();
  const download = () => {
    const text = [
      `Vigie — codes de secours de ${email}`,
      'Chaque code remplace une fois l’application d’authentification.',
      '',
      ...codes,
      '',
    ].join('\n');
    saveBlob(new Blob([text], { type: 'text/plain;charset=utf-8' }), 'vigie-codes-de-secours.txt');
  };
  return (
    <div className="grid gap-4" role="group" aria-labelledby={`${id}-title`}>
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-emerald-200">
        <ShieldCheck className="size-4" aria-hidden="true" />
        {status}
      </p>
      <div>
        <h3 id={`${id}-title`} className="font-semibold text-white">
          Codes de secours
        </h3>
        <p className="mt-1 text-sm text-slate-300">
          Notez-les ou téléchargez-les maintenant{'\u202F'}: ils ne seront plus affichés. Chacun remplace une fois votre application, si
          vous perdez votre téléphone.
        </p>
      </div>
      <ul aria-label="Codes de secours" className="grid max-w-sm grid-cols-2 gap-2 font-mono text-sm text-white">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code" className="rounded-lg border border-white/10 bg-slate-950/60 px-3 py-1.5 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button icon={<Download className="size-4" aria-hidden="true" />} onClick={download}>
          Télécharger les codes
        </Button>
        <Button variant="primary" onClick={onDone}>
          J’ai mis mes codes en lieu sûr
        </Button>
      </div>
    </div>
  );
}

function Enrolment({
  setup,
  onCancel,
  onEnabled,
}: {
  setup: TotpSetupResponse;
  onCancel: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const id = useId();
  const enable = useTotpEnable();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) return setProblem('Saisissez les 6 chiffres affichés par l’application.');
    setProblem(null);
    enable.mutate(code, {
      onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes),
      onError: (error) => setProblem(errorMessage(error, 'La double authentification n’a pas pu être activée.')),
    });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5 sm:grid-cols-[12rem_1fr]">
      <QrCode value={setup.uri} label="QR code à scanner avec votre application d’authentification" />
      <div className="grid content-start gap-4">
        <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-300">
          <li>Scannez ce QR code avec votre application d’authentification (FreeOTP, Aegis, Google Authenticator…).</li>
          <li>
            Sans appareil photo, saisissez cette clé{'\u202F'}:{' '}
            <code data-testid="totp-secret" className="break-all rounded bg-slate-950/70 px-1.5 py-0.5 font-mono text-white">
              {grouped(setup.secret)}
            </code>
          </li>
          <li>Confirmez avec le code à 6 chiffres qu’elle affiche.</li>
        </ol>
        <div className="max-w-xs">
          <FieldLabel htmlFor={`${id}-code`} className="mb-1.5">
            Code à 6 chiffres
          </FieldLabel>
          <input
            id={`${id}-code`}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-status`}
            className={`${inputClass} font-mono tracking-widest`}
          />
        </div>
        <FormStatus id={`${id}-status`} error={problem} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" variant="primary" busy={enable.isPending} icon={<ShieldCheck className="size-4" aria-hidden="true" />}>
            Activer
          </Button>
          <Button onClick={onCancel}>Annuler</Button>
        </div>
      </div>
    </form>
  );
}

/** A password to confirm a change of one's second factor (turning it off, new recovery codes). */
function PasswordConfirm({
  action,
  variant,
  icon,
  busy,
  missing,
  failure,
  onConfirm,
}: {
  action: string;
  variant: 'danger' | 'secondary';
  icon: ReactNode;
  busy: boolean;
  /** What to say when the field is empty, and when the change fails without a message of the server. */
  missing: string;
  failure: string;
  /** Makes the change with the password; rejects when it is refused. */
  onConfirm: (password: string) => Promise<void>;
}) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password) return setProblem(missing);
    setProblem(null);
    onConfirm(password).then(
      () => setPassword(''),
      (error: unknown) => setProblem(errorMessage(error, failure)),
    );
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid max-w-md gap-3" aria-label={action}>
      <FieldLabel htmlFor={`${id}-password`}>Mot de passe</FieldLabel>
      <input
        id={`${id}-password`}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-status`}
        className={inputClass}
      />
      <FormStatus id={`${id}-status`} error={problem} />
      <div>
        <Button type="submit" variant={variant} busy={busy} icon={icon}>
          {action}
        </Button>
      </div>
    </form>
  );
}

function Disable({ onDisabled }: { onDisabled: () => void }) {
  const disable = useTotpDisable();
  return (
    <PasswordConfirm
      action="Désactiver la double authentification"
      variant="danger"
      icon={<ShieldOff className="size-4" aria-hidden="true" />}
      busy={disable.isPending}
      missing="Saisissez votre mot de passe pour désactiver la double authentification."
      failure="La double authentification n’a pas pu être désactivée."
      onConfirm={(password) => disable.mutateAsync(password).then(onDisabled)}
    />
  );
}

/** How many recovery codes are left, and ten new ones given the password. */
function RecoveryCodesLeft({ onRenewed }: { onRenewed: (codes: string[]) => void }) {
  const id = useId();
  const left = useRecoveryCodesLeft();
  const renew = useRenewRecoveryCodes();
  const remaining = left.data;
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3 border-t border-white/10 pt-4">
      <h3 id={`${id}-title`} className="font-semibold text-white">
        Codes de secours
      </h3>
      <p className="text-sm text-slate-300" data-testid="recovery-codes-left">
        {remaining === undefined
          ? left.isError
            ? 'Le nombre de codes de secours restants n’a pas pu être lu.'
            : 'Lecture des codes de secours…'
          : remaining === 0
            ? 'Vous n’avez plus aucun code de secours inutilisé\u202F: renouvelez-les.'
            : `${remaining} code${remaining > 1 ? 's' : ''} de secours inutilisé${remaining > 1 ? 's' : ''} sur 10.`}
        {remaining !== undefined && remaining > 0 && remaining <= 3 ? ' Il vous en reste peu\u202F: renouvelez-les.' : ''}
      </p>
      <p className="text-sm text-slate-300">Renouveler remplace tous vos codes de secours{'\u202F'}: les anciens ne fonctionneront plus.</p>
      <PasswordConfirm
        action="Renouveler les codes de secours"
        variant="secondary"
        icon={<KeyRound className="size-4" aria-hidden="true" />}
        busy={renew.isPending}
        missing="Saisissez votre mot de passe pour renouveler les codes de secours."
        failure="Les codes de secours n’ont pas pu être renouvelés."
        onConfirm={(password) => renew.mutateAsync(password).then(({ recoveryCodes }) => onRenewed(recoveryCodes))}
      />
    </section>
  );
}

/**
 * « Mon compte »: two-factor authentication. Turning it on shows a QR code to scan, asks for a
 * code to confirm, then shows the recovery codes once; turning it off asks for the password.
 */
export function TotpPanel() {
  const { user, refreshUser } = useAuth();
  const setup = useTotpSetup();
  /** Recovery codes to show once, what to say above them, and once they are put away. */
  const [codes, setCodes] = useState<{ list: string[]; status: string; done: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () =>
    refreshUser().catch((error: unknown) => setProblem(errorMessage(error, 'Votre compte n’a pas pu être relu\u202F: rechargez la page.')));

  if (!user) return null;

  if (codes) {
    return (
      <RecoveryCodes
        codes={codes.list}
        email={user.email}
        status={codes.status}
        onDone={() => {
          setCodes(null);
          setNotice(codes.done);
          void refresh();
        }}
      />
    );
  }

  if (setup.data && !user.totpEnabled) {
    return (
      <Enrolment
        setup={setup.data}
        onCancel={() => setup.reset()}
        onEnabled={(recoveryCodes) => {
          setup.reset();
          setCodes({ list: recoveryCodes, status: 'Double authentification activée.', done: 'La double authentification est activée.' });
        }}
      />
    );
  }

  if (user.totpEnabled) {
    return (
      <div className="grid gap-4">
        <p className="flex items-center gap-2 text-sm font-medium text-emerald-200">
          <ShieldCheck className="size-4" aria-hidden="true" />
          Activée{'\u202F'}: chaque connexion demande un code de votre application en plus du mot de passe.
        </p>
        <FormStatus success={notice ?? undefined} />
        <Disable
          onDisabled={() => {
            setNotice('La double authentification est désactivée.');
            void refresh();
          }}
        />
        <RecoveryCodesLeft
          onRenewed={(recoveryCodes) => {
            setNotice(null);
            setCodes({
              list: recoveryCodes,
              status: 'Nouveaux codes de secours\u202F: les anciens ne fonctionnent plus.',
              done: 'Vos nouveaux codes de secours sont prêts.',
            });
          }}
        />
      </div>
    );
  }

  return (
    <div className="grid gap-3">
      <p className="text-sm text-slate-300">
        Un mot de passe deviné ou volé ne suffit plus{'\u202F'}: chaque connexion demande aussi le code à 6 chiffres d’une application
        d’authentification sur votre téléphone.
      </p>
      <div>
        <Button
          variant="primary"
          busy={setup.isPending}
          icon={<ShieldCheck className="size-4" aria-hidden="true" />}
          onClick={() => {
            setProblem(null);
            setNotice(null);
            setup.mutate(undefined, {
              onError: (error) => setProblem(errorMessage(error, 'L’activation n’a pas pu commencer.')),
            });
          }}
        >
          Activer la double authentification
        </Button>
      </div>
      <FormStatus error={problem} success={notice ?? undefined} />
    </div>
  );
}
