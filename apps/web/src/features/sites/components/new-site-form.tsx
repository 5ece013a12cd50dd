import { useCreateSite } from '../api/site-mutations';
import { AddByNameForm } from './add-by-name-form';

/** Adds a shop: a name, and the usual hours (Monday to Saturday, 09:00–19:00) to adjust afterwards. */
export function NewSiteForm() {
  const create = useCreateSite();
  return (
    <AddByNameForm
      label="Nouveau site"
      placeholder="Boutique Lyon Part-Dieu"
      submitLabel="Ajouter le site"
      requiredMessage="Le nom est obligatoire."
      failureMessage="Le site n’a pas été créé."
      busy={create.isPending}
      create={async (name) => `Site « ${(await create.mutateAsync({ name })).name} » ajouté.`}
    />
  );
}
