import { PlugZap } from 'lucide-react';
import { PRODUCT_NAME } from '@/config/constants';
import { InstallationPanel } from '@/features/installation/components/installation-panel';

export default function InstallationRoute() {
  return (
    <>
      <title>{`Installation · ${PRODUCT_NAME}`}</title>
      <div className="mb-8 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <PlugZap className="size-7 text-cyan-300" aria-hidden="true" />
          Installation
        </h1>
        <p className="mt-3 text-lg text-slate-200">
          Branchez l’appareil, scannez ce code ou saisissez la clé&#8239;: il apparaît tout seul dans votre tableau de bord.
        </p>
      </div>
      <InstallationPanel />
    </>
  );
}
