import { Plus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormStatus } from '@/components/ui/form-status';
import { inputClass } from '@/components/ui/section';
import { errorMessage } from '@/lib/errors';
import { useCreateSite } from '../api/site-mutations';

/** Adds a shop: a name, and the usual hours (Monday to Saturday, 09:00–19:00) to adjust afterwards. */
export function NewSiteForm() {
  const create = useCreateSite();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const fieldId = useId();
  const statusId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (!name.trim()) return setError('Le nom est obligatoire.');
    setError(null);
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (site) => {
          setName('');
          setDone(`Site « ${site.name} » ajouté.`);
        },
        onError: (failure) => setError(errorMessage(failure, 'Le site n’a pas été créé.')),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="flex-1 space-y-1.5">
        <label htmlFor={fieldId} className="block text-sm font-medium text-slate-200">
          Nouveau site
        </label>
        <input
          id={fieldId}
          value={name}
          placeholder="Boutique Lyon Part-Dieu"
          aria-describedby={statusId}
          onChange={(e) => setName(e.target.value)}
          className={inputClass}
        />
      </div>
      <Button type="submit" variant="secondary" busy={create.isPending} icon={<Plus className="size-4" aria-hidden="true" />}>
        Ajouter le site
      </Button>
      <FormStatus id={statusId} error={error} success={done} className="sm:self-center" />
    </form>
  );
}
