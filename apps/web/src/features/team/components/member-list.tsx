import type { Member, Role } from '@vigie/contract';
import { ShieldOff, UserMinus } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { showToast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/errors';
import { ROLE_LABELS, ROLE_OPTIONS } from '@/lib/permissions';
import { useRemoveMember, useUpdateMemberRole, useUpdateMemberScope } from '../api/member-mutations';
import { ScopeOptions, scopeOf } from './invite-form';
import { ResetTwoFactorDialog } from './reset-two-factor-dialog';
import { memberLabel } from '../team-format';

const selectClass =
  'w-full rounded-xl border border-white/15 bg-slate-950/70 px-3 py-2 text-sm text-white focus:border-cyan-300/60 disabled:cursor-wait disabled:opacity-70 sm:w-44';

type MemberListProps = {
  members: Member[];
  /** The signed-in user, marked « vous ». */
  currentUserId: string | undefined;
  /** Admins change roles and remove members; others only read the list. */
  canManage: boolean;
  organizationName?: string | undefined;
  /** The organization's shops and regions: for a chain, what each member sees (« Périmètre »). */
  sites?: readonly { id: string; name: string }[];
  regions?: readonly { id: string; name: string }[];
};

/** The « Périmètre » choice of a member's scope: `''` for the whole organization, `many` when it holds several shops or regions. */
function choiceOf(scope: Member['scope']): string {
  if (!scope) return '';
  const entries = [...scope.regionIds.map((id) => `region:${id}`), ...scope.siteIds.map((id) => `site:${id}`)];
  return entries.length === 1 ? (entries[0] as string) : 'many';
}

/** The organization's members: who they are, their role, and (for an admin) its change or their removal. */
export function MemberList({ members, currentUserId, canManage, organizationName, sites = [], regions = [] }: MemberListProps) {
  const update = useUpdateMemberRole();
  const updateScope = useUpdateMemberScope();
  const chain = sites.length > 1 || regions.length > 0;
  const nameOf = (choice: string) => {
    if (choice === '') return 'Toute l’organisation';
    const [kind, id] = choice.split(':');
    const found = (kind === 'region' ? regions : sites).find((entry) => entry.id === id);
    return found ? `${kind === 'region' ? 'région ' : ''}${found.name}` : 'Plusieurs magasins ou régions';
  };
  const onScopeChange = (member: Member, choice: string) => {
    if (choice === choiceOf(member.scope) || choice === 'many') return;
    setError(null);
    updateScope.mutate(
      { id: member.id, scope: scopeOf(choice) },
      {
        onSuccess: (changed) => showToast({ message: `Périmètre de ${memberLabel(changed)}\u202F: ${nameOf(choiceOf(changed.scope))}.` }),
        onError: (failure) => setError(errorMessage(failure, 'Le périmètre n’a pas été modifié.')),
      },
    );
  };
  const remove = useRemoveMember();
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [resetting, setResetting] = useState<Member | null>(null);
  const selectId = useId();
  const adminCount = members.filter((member) => member.role === 'admin').length;

  const onRoleChange = (member: Member, role: Role) => {
    if (role === member.role) return;
    setError(null);
    update.mutate(
      { id: member.id, role },
      {
        onSuccess: (changed) => showToast({ message: `Rôle de ${memberLabel(changed)}\u202F: ${ROLE_LABELS[changed.role]}.` }),
        onError: (failure) => setError(errorMessage(failure, 'Le rôle n’a pas été modifié.')),
      },
    );
  };

  const onRemove = () => {
    if (!removing) return;
    const member = removing;
    setError(null);
    remove.mutate(member.id, {
      onSuccess: () => {
        setRemoving(null);
        showToast({ message: `${memberLabel(member)} ne fait plus partie de l’équipe.` });
      },
      onError: (failure) => {
        setRemoving(null);
        setError(errorMessage(failure, 'Le membre n’a pas été retiré.'));
      },
    });
  };

  return (
    <div className="space-y-4">
      {error && <Alert onDismiss={() => setError(null)}>{error}</Alert>}
      <ul className="divide-y divide-white/10" aria-label="Membres de l’équipe">
        {members.map((member) => {
          const label = memberLabel(member);
          const pendingRole = update.isPending && update.variables.id === member.id ? update.variables.role : null;
          // The server refuses to remove or demote the last admin: no control that can only fail.
          const lastAdmin = member.role === 'admin' && adminCount === 1;
          return (
            <li key={member.id} data-testid="member" className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
              <div className="min-w-0 flex-1">
                <p className="font-medium [overflow-wrap:anywhere] text-white">
                  {member.name?.trim() ? member.name : <span className="italic text-slate-300">Sans nom</span>}
                  {member.id === currentUserId && <span className="ml-2 text-sm font-normal text-slate-400">(vous)</span>}
                </p>
                <p className="text-sm [overflow-wrap:anywhere] text-slate-300">{member.email}</p>
              </div>
              {canManage && lastAdmin ? (
                <div className="text-sm sm:text-right">
                  <p className="text-slate-200">{ROLE_LABELS[member.role]}</p>
                  <p className="text-slate-400">Seul administrateur{'\u202F'}: ne peut être ni retiré ni rétrogradé</p>
                </div>
              ) : canManage ? (
                <div className="flex flex-wrap items-center gap-2">
                  <label htmlFor={`${selectId}-${member.id}`} className="sr-only">
                    {`Rôle de ${label}`}
                  </label>
                  <select
                    id={`${selectId}-${member.id}`}
                    value={pendingRole ?? member.role}
                    disabled={pendingRole !== null}
                    aria-busy={pendingRole !== null || undefined}
                    onChange={(event) => onRoleChange(member, event.target.value as Role)}
                    className={selectClass}
                  >
                    {ROLE_OPTIONS.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </select>
                  {chain && (
                    <>
                      <label htmlFor={`${selectId}-${member.id}-scope`} className="sr-only">
                        {`Périmètre de ${label}`}
                      </label>
                      <select
                        id={`${selectId}-${member.id}-scope`}
                        value={
                          updateScope.isPending && updateScope.variables.id === member.id
                            ? choiceOf(updateScope.variables.scope)
                            : choiceOf(member.scope)
                        }
                        disabled={updateScope.isPending && updateScope.variables.id === member.id}
                        onChange={(event) => onScopeChange(member, event.target.value)}
                        className={selectClass}
                      >
                        <ScopeOptions sites={sites} regions={regions} several={choiceOf(member.scope) === 'many'} />
                      </select>
                    </>
                  )}
                  <Button
                    variant="danger"
                    size="sm"
                    onClick={() => setRemoving(member)}
                    aria-label={`Retirer ${label}`}
                    icon={<UserMinus className="size-4" aria-hidden="true" />}
                  >
                    Retirer
                  </Button>
                  {member.id !== currentUserId && (
                    <Button
                      size="sm"
                      onClick={() => setResetting(member)}
                      aria-label={`Réinitialiser la double authentification de ${label}`}
                      icon={<ShieldOff className="size-4" aria-hidden="true" />}
                    >
                      Réinitialiser la double authentification
                    </Button>
                  )}
                </div>
              ) : (
                <p className="text-sm text-slate-200">
                  {ROLE_LABELS[member.role]}
                  {chain && member.scope && <span className="text-slate-400"> · {nameOf(choiceOf(member.scope))}</span>}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title={removing ? `Retirer ${memberLabel(removing)}\u202F?` : 'Retirer ce membre\u202F?'}
        confirmLabel={remove.isPending ? 'Retrait…' : 'Retirer'}
        busy={remove.isPending}
        onConfirm={onRemove}
        onCancel={() => setRemoving(null)}
      >
        {`${removing ? memberLabel(removing) : 'Ce membre'} n’aura plus accès à ${organizationName ?? 'votre organisation'}. Ses sessions en cours prennent fin immédiatement\u00A0: cette personne est déconnectée partout, à l’instant.`}
      </ConfirmDialog>
      <ResetTwoFactorDialog member={resetting} onClose={() => setResetting(null)} />
    </div>
  );
}
