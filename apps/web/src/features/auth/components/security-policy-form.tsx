import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { FormStatus } from '@/components/ui/form-status';
import { useSecurityPolicy, useUpdateSecurityPolicy } from '../api/totp';
import { errorMessage } from '@/lib/errors';
import { LOAD_ERROR } from '@/lib/fallback-text';

/**
 * « Équipe », for admins: require two-factor authentication of every admin. The server refuses
 * it until the admin who asks has turned it on, so that nobody shuts themselves out.
 */
export function SecurityPolicyForm() {
  const id = useId();
  const policy = useSecurityPolicy();
  const update = useUpdateSecurityPolicy();
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  if (policy.isError) return <Alert>{errorMessage(policy.error, LOAD_ERROR)}</Alert>;
  const checked = policy.data?.requireTotpForAdmins ?? false;

  return (
    <div className="grid gap-2">
      <label className="inline-flex cursor-pointer items-start gap-3 text-sm text-slate-200">
        <input
          type="checkbox"
          checked={checked}
          disabled={!policy.data || update.isPending}
          aria-describedby={`${id}-hint ${id}-status`}
          onChange={(event) => {
            const requireTotpForAdmins = event.target.checked;
            setProblem(null);
            setSaved(null);
            update.mutate(
              { requireTotpForAdmins },
              {
                onSuccess: () =>
                  setSaved(
                    requireTotpForAdmins
                      ? 'Enregistré : les administrateurs sans double authentification devront l’activer à leur prochaine action.'
                      : 'Enregistré\u202F: la double authentification n’est plus exigée.',
                  ),
                onError: (error) => setProblem(errorMessage(error, 'Le réglage n’a pas pu être enregistré.')),
              },
            );
          }}
          className="mt-0.5 size-4 shrink-0 rounded border-white/20 bg-slate-900 accent-cyan-400"
        />
        <span className="font-medium">Exiger la double authentification pour les administrateurs</span>
      </label>
      <p id={`${id}-hint`} className="pl-7 text-sm text-slate-400">
        Un administrateur qui ne l’a pas activée n’accède plus qu’à « Mon compte » jusqu’à ce qu’il le fasse.
      </p>
      <FormStatus id={`${id}-status`} className="pl-7" error={problem} success={saved ?? undefined} />
    </div>
  );
}
