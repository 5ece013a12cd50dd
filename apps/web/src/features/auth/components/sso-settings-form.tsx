import type { Role, SsoSettings } from '@vigie/contract';
import { ROLES } from '@vigie/contract/values';
import { KeyRound } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldLabel } from '@/components/ui/field-label';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { LOAD_ERROR } from '@/lib/fallback-text';
import { ROLE_LABELS } from '@/lib/permissions';
import { ssoCallbackUrl, useSsoSettings, useUpdateSsoSettings } from '../api/sso';

/** The domains as typed: separated by commas, spaces or lines, without « @ ». */
function domainsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((domain) => domain.trim().replace(/^@/, '').toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** « Groupe = rôle », one a line. */
function groupRolesOf(text: string): Record<string, Role> | string {
  const roles: Record<string, Role> = {};
  for (const line of text
    .split('\n')
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const at = line.lastIndexOf('=');
    const group = line.slice(0, at).trim();
    const role = line.slice(at + 1).trim() as Role;
    if (at <= 0 || !group || !ROLES.includes(role)) {
      return `Ligne «\u00a0${line}\u00a0»\u202F: écrivez «\u00a0Groupe = admin\u00a0», «\u00a0= manager\u00a0» ou «\u00a0= viewer\u00a0».`;
    }
    roles[group] = role;
  }
  return roles;
}

const groupRolesText = (roles: Record<string, Role>) =>
  Object.entries(roles)
    .map(([group, role]) => `${group} = ${role}`)
    .join('\n');

/** The form, filled with what is stored (its secret left blank: it is never read back). */
function SsoForm({ stored }: { stored: SsoSettings | null }) {
  const update = useUpdateSsoSettings();
  const [issuer, setIssuer] = useState(stored?.issuer ?? '');
  const [clientId, setClientId] = useState(stored?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState(stored?.domains.join(', ') ?? '');
  const [defaultRole, setDefaultRole] = useState<Role>(stored?.defaultRole ?? 'viewer');
  const [groups, setGroups] = useState(groupRolesText(stored?.groupRoles ?? {}));
  const [enforced, setEnforced] = useState(stored?.enforced ?? false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const ids = {
    issuer: useId(),
    clientId: useId(),
    secret: useId(),
    secretHint: useId(),
    domains: useId(),
    role: useId(),
    groups: useId(),
    groupsHint: useId(),
    enforcedHint: useId(),
    callback: useId(),
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const groupRoles = groupRolesOf(groups);
    if (typeof groupRoles === 'string') return setError(groupRoles);
    update.mutate(
      {
        issuer: issuer.trim(),
        clientId: clientId.trim(),
        ...(clientSecret ? { clientSecret } : {}),
        domains: domainsOf(domains),
        defaultRole,
        groupRoles,
        enforced,
      },
      {
        onSuccess: () => {
          setClientSecret('');
          setSaved(
            enforced
              ? 'Enregistré\u202F: les adresses de ces domaines se connectent désormais par l’authentification unique seulement.'
              : 'Enregistré\u202F: la page de connexion propose l’authentification unique aux adresses de ces domaines.',
          );
        },
        onError: (failure) => setError(errorMessage(failure, 'L’authentification unique n’a pas été enregistrée.')),
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Authentification unique" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1 sm:col-span-2">
          <FieldLabel htmlFor={ids.callback}>Adresse de retour à déclarer chez le fournisseur</FieldLabel>
          <input
            id={ids.callback}
            readOnly
            value={ssoCallbackUrl(window.location.origin)}
            onFocus={(event) => event.target.select()}
            className={`${inputClass} font-mono`}
          />
        </div>
        <div className="space-y-1 sm:col-span-2">
          <FieldLabel htmlFor={ids.issuer}>Émetteur (issuer)</FieldLabel>
          <input
            id={ids.issuer}
            type="url"
            inputMode="url"
            spellCheck={false}
            placeholder="https://login.exemple.fr/realms/magasins"
            value={issuer}
            onChange={(event) => setIssuer(event.target.value)}
            className={inputClass}
          />
        </div>
        <div className="space-y-1">
          <FieldLabel htmlFor={ids.clientId}>Identifiant du client</FieldLabel>
          <input
            id={ids.clientId}
            spellCheck={false}
            autoComplete="off"
            value={clientId}
            onChange={(event) => setClientId(event.target.value)}
            className={inputClass}
          />
        </div>
        <div className="space-y-1">
          <FieldLabel htmlFor={ids.secret}>Secret du client</FieldLabel>
          <input
            id={ids.secret}
            type="password"
            autoComplete="new-password"
            value={clientSecret}
            onChange={(event) => setClientSecret(event.target.value)}
            aria-describedby={ids.secretHint}
            className={inputClass}
          />
          <p id={ids.secretHint} className="text-xs text-slate-400">
            {stored ? 'Laissez vide pour garder le secret enregistré (il n’est jamais réaffiché).' : 'Obligatoire la première fois.'}
          </p>
        </div>
        <div className="space-y-1">
          <FieldLabel htmlFor={ids.domains}>Domaines des adresses e-mail</FieldLabel>
          <input
            id={ids.domains}
            spellCheck={false}
            placeholder="exemple.fr, magasins.exemple.fr"
            value={domains}
            onChange={(event) => setDomains(event.target.value)}
            className={inputClass}
          />
        </div>
        <div className="space-y-1">
          <FieldLabel htmlFor={ids.role}>Rôle d’une personne nouvelle</FieldLabel>
          <select id={ids.role} value={defaultRole} onChange={(event) => setDefaultRole(event.target.value as Role)} className={inputClass}>
            {ROLES.map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1 sm:col-span-2">
          <FieldLabel htmlFor={ids.groups}>Rôles des groupes (facultatif)</FieldLabel>
          <textarea
            id={ids.groups}
            rows={3}
            spellCheck={false}
            placeholder={'Qualité = manager\nDirection = admin'}
            value={groups}
            onChange={(event) => setGroups(event.target.value)}
            aria-describedby={ids.groupsHint}
            className={inputClass}
          />
          <p id={ids.groupsHint} className="text-xs text-slate-400">
            Un groupe par ligne, tel que le fournisseur le nomme dans la revendication «{'\u00a0'}groups{'\u00a0'}»{'\u202F'}; le rôle le
            plus fort l’emporte.
          </p>
        </div>
      </div>
      <label className="inline-flex cursor-pointer items-start gap-3 text-sm text-slate-200">
        <input
          type="checkbox"
          checked={enforced}
          onChange={(event) => setEnforced(event.target.checked)}
          aria-describedby={ids.enforcedHint}
          className="mt-0.5 size-4 shrink-0 rounded border-white/20 bg-slate-900 accent-cyan-400"
        />
        <span className="font-medium">Exiger l’authentification unique pour ces domaines</span>
      </label>
      <p id={ids.enforcedHint} className="pl-7 text-sm text-slate-400">
        Le mot de passe est alors refusé à leurs adresses, et leurs sessions ouvertes par mot de passe prennent fin (sauf la vôtre).
      </p>
      <Button type="submit" variant="primary" busy={update.isPending} icon={<KeyRound className="size-4" aria-hidden="true" />}>
        Enregistrer
      </Button>
      <FormStatus error={error} success={saved ?? undefined} />
    </form>
  );
}

/** « Équipe », for admins: the organization's OpenID Connect provider, its domains and the role of the people it brings. */
export function SsoSettingsForm() {
  const settings = useSsoSettings();
  if (settings.isError) return <Alert>{errorMessage(settings.error, LOAD_ERROR)}</Alert>;
  if (settings.data === undefined) return <p className="text-sm text-slate-300">Chargement…</p>;
  return <SsoForm stored={settings.data} />;
}
