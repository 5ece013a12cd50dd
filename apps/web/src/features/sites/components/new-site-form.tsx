import { useCreateSite } from '../api/site-mutations';
import { AddByNameForm } from './add-by-name-form';

/** Adds a shop: a name, and the usual hours (Monday to Saturday, 9 h–19 h) to adjust afterwards. */
export function NewSiteForm() {
  const create = useCreateSite();
  return (
    <AddByNameForm
      label="Nouveau magasin"
      placeholder="Boutique Lyon Part-Dieu"
      submitLabel="Ajouter un magasin"
      requiredMessage="Le nom est obligatoire."
      failureMessage="Le magasin n’a pas été créé."
      busy={create.isPending}
      create={async (name) => `Magasin «\u202F${(await create.mutateAsync({ name })).name}\u202F» ajouté.`}
    />
  );
}
