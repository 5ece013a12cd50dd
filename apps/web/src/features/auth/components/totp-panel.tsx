import { Download, ShieldCheck, ShieldOff } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { TotpSetupResponse } from '@vigie/contract';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { QrCode } from '@/components/qr-code';
import { useAuth } from '@/lib/auth';
import { saveBlob } from '@/lib/download-file';
import { errorMessage } from '@/lib/errors';
import { useTotpDisable, useTotpEnable, useTotpSetup } from '../api/totp';

/** The secret in groups of four, as authenticator apps show and ask for it. */
function grouped(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

function RecoveryCodes({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
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
        Double authentification activée.
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
          <label htmlFor={`${id}-code`} className="mb-1.5 block text-sm font-medium text-slate-200">
            Code à 6 chiffres
          </label>
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

function Disable({ onDisabled }: { onDisabled: () => void }) {
  const id = useId();
  const disable = useTotpDisable();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password) return setProblem('Saisissez votre mot de passe pour désactiver la double authentification.');
    setProblem(null);
    disable.mutate(password, {
      onSuccess: () => {
        setPassword('');
        onDisabled();
      },
      onError: (error) => setProblem(errorMessage(error, 'La double authentification n’a pas pu être désactivée.')),
    });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="grid max-w-md gap-3">
      <label htmlFor={`${id}-password`} className="block text-sm font-medium text-slate-200">
        Mot de passe
      </label>
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
        <Button type="submit" variant="danger" busy={disable.isPending} icon={<ShieldOff className="size-4" aria-hidden="true" />}>
          Désactiver la double authentification
        </Button>
      </div>
    </form>
  );
}

/**
 * « Mon compte »: two-factor authentication. Turning it on shows a QR code to scan, asks for a
 * code to confirm, then shows the recovery codes once; turning it off asks for the password.
 */
export function TotpPanel() {
  const { user, refreshUser } = useAuth();
  const setup = useTotpSetup();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () =>
    refreshUser().catch((error: unknown) => setProblem(errorMessage(error, 'Votre compte n’a pas pu être relu : rechargez la page.')));

  if (!user) return null;

  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        email={user.email}
        onDone={() => {
          setCodes(null);
          setNotice('La double authentification est activée.');
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
          setCodes(recoveryCodes);
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
