import { Trash2 } from 'lucide-react';
import { PRODUCT_NAME } from '@/config/constants';
import { TrashList } from '@/features/devices/components/trash-list';

/** /dashboard/corbeille: deleted devices, restorable until they are erased. */
export default function TrashRoute() {
  return (
    <>
      <title>{`Corbeille · ${PRODUCT_NAME}`}</title>
      <div className="mb-8 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <Trash2 className="size-7 text-cyan-300" aria-hidden="true" />
          Corbeille
        </h1>
        <p className="mt-3 text-slate-300">
          Les appareils supprimés restent ici avec leur historique, puis sont effacés définitivement à la date indiquée.
        </p>
      </div>
      <TrashList />
    </>
  );
}
