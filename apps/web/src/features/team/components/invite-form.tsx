import type { MemberScope, Role } from '@vigie/contract';
import { Send } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { ROLE_LABELS, ROLE_OPTIONS } from '@/lib/permissions';
import { useCreateInvitation } from '../api/invitation-mutations';
import { HandoverLink } from './handover-link';
import { emailError } from '../team-format';
import { FieldLabel } from '@/components/ui/field-label';

/** What « Périmètre » offers: the whole organization (`''`), a shop (`site:<id>`) or a region (`region:<id>`). */
export function scopeOf(choice: string): MemberScope | null {
  const [kind, id] = choice.split(':');
  if (!id) return null;
  return kind === 'region' ? { siteIds: [], regionIds: [id] } : { siteIds: [id], regionIds: [] };
}

/**
 * The choices of « Périmètre »: the whole organization, each region, each shop (values as `scopeOf`
 * reads them). `several`: the member's present scope holds more than one, shown but not chosen again.
 */
export function ScopeOptions({
  sites,
  regions,
  several = false,
}: {
  sites: readonly { id: string; name: string }[];
  regions: readonly { id: string; name: string }[];
  several?: boolean;
}) {
  return (
    <>
      <option value="">Toute l’organisation</option>
      {several && (
        <option value="many" disabled>
          Plusieurs magasins ou régions
        </option>
      )}
      {regions.length > 0 && (
        <optgroup label="Une région">
          {regions.map((region) => (
            <option key={region.id} value={`region:${region.id}`}>
              {region.name}
            </option>
          ))}
        </optgroup>
      )}
      <optgroup label="Un magasin">
        {sites.map((site) => (
          <option key={site.id} value={`site:${site.id}`}>
            {site.name}
          </option>
        ))}
      </optgroup>
    </>
  );
}

/**
 * « Inviter un membre »: an address, a role and, for a chain (several shops or regions), what the
 * person will see; the link goes out by e-mail.
 */
export function InviteForm({
  sites = [],
  regions = [],
}: {
  /** The organization's shops and regions, to choose what the person will see. */
  sites?: readonly { id: string; name: string }[];
  regions?: readonly { id: string; name: string }[];
}) {
  const create = useCreateInvitation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [scope, setScope] = useState('');
  const chain = sites.length > 1 || regions.length > 0;
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [handover, setHandover] = useState<{ email: string; link: string } | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const ids = { email: useId(), role: useId(), scope: useId(), status: useId(), title: useId() };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    setHandover(null);
    const invalid = emailError(email);
    setError(invalid);
    if (invalid) {
      emailRef.current?.focus();
      return;
    }
    create.mutate(
      { email: email.trim(), role, ...(scope ? { scope: scopeOf(scope) } : {}) },
      {
        onSuccess: ({ invitation, link }) => {
          setEmail('');
          // Without e-mail on this server, nothing was sent: the link is handed over instead.
          if (link) setHandover({ email: invitation.email, link });
          else setDone(`Invitation envoyée à ${invitation.email} (${ROLE_LABELS[invitation.role]}).`);
        },
        onError: (failure) => {
          setError(errorMessage(failure, 'L’invitation n’a pas été envoyée.'));
          emailRef.current?.focus();
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={ids.title} className="space-y-3">
      <h2 id={ids.title} className="text-lg font-semibold text-white">
        Inviter un membre
      </h2>
      <p className="text-sm text-slate-300">La personne reçoit par e-mail un lien pour choisir son nom et son mot de passe.</p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1 space-y-1.5">
          <FieldLabel htmlFor={ids.email}>Adresse e-mail</FieldLabel>
          <input
            ref={emailRef}
            id={ids.email}
            type="email"
            inputMode="email"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={email}
            placeholder="prenom.nom@entreprise.fr"
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={ids.status}
            className={inputClass}
          />
        </div>
        <div className="space-y-1.5 sm:w-44">
          <FieldLabel htmlFor={ids.role}>Rôle</FieldLabel>
          <select id={ids.role} value={role} onChange={(event) => setRole(event.target.value as Role)} className={inputClass}>
            {ROLE_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        {chain && (
          <div className="space-y-1.5 sm:w-56">
            <FieldLabel htmlFor={ids.scope}>Périmètre</FieldLabel>
            <select id={ids.scope} value={scope} onChange={(event) => setScope(event.target.value)} className={inputClass}>
              <ScopeOptions sites={sites} regions={regions} />
            </select>
          </div>
        )}
        <Button type="submit" variant="primary" busy={create.isPending} icon={<Send className="size-4" aria-hidden="true" />}>
          Envoyer l’invitation
        </Button>
      </div>
      <FormStatus id={ids.status} error={error} success={done} />
      {handover && <HandoverLink email={handover.email} link={handover.link} />}
    </form>
  );
}
