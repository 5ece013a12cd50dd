import { Network } from 'lucide-react';
import { PRODUCT_NAME } from '@/config/constants';
import { NetworkOverview } from '@/features/sites/components/network-overview';

/** /dashboard/reseau: the chain at a glance, the shops of the person's scope. */
export default function NetworkRoute() {
  return (
    <>
      <title>{`Réseau · ${PRODUCT_NAME}`}</title>
      <div className="mb-8 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <Network className="size-7 text-cyan-300" aria-hidden="true" />
          Réseau
        </h1>
        <p className="mt-3 text-slate-300">Chaque magasin de votre périmètre, le plus à surveiller d’abord ; un nom ouvre ses appareils.</p>
      </div>
      <NetworkOverview />
    </>
  );
}
