import { PlugZap } from 'lucide-react';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '@/config/constants';
import { InstallationPanel } from '@/features/installation/components/installation-panel';
import { usePermissions } from '@/lib/permissions';

export default function InstallationRoute() {
  const { manage } = usePermissions();
  if (!manage) {
    // The key adds devices to the organization: the server does not show it to those who only read.
    return (
      <>
        <title>{`Installation · ${PRODUCT_NAME}`}</title>
        <h1 className="mb-4 flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <PlugZap className="size-7 text-cyan-300" aria-hidden="true" />
          Installation
        </h1>
        <p className="max-w-2xl text-slate-200">
          Seuls les administrateurs et les responsables de votre organisation installent des appareils. Ceux qu’ils installent apparaissent
          dans votre tableau de bord.
        </p>
      </>
    );
  }
  return (
    <>
      <title>{`Installation · ${PRODUCT_NAME}`}</title>
      <div className="mb-8 max-w-3xl">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight text-white">
          <PlugZap className="size-7 text-cyan-300" aria-hidden="true" />
          Installation
        </h1>
        <p className="mt-3 text-lg text-slate-200">
          Un appareil configuré avec la clé de votre organisation apparaît tout seul dans votre tableau de bord. Un appareil livré avec une
          étiquette s’installe depuis l’
          <Link to="/dashboard/installer" className="font-semibold text-cyan-200 underline underline-offset-4 hover:text-cyan-100">
            installation guidée
          </Link>
          .
        </p>
      </div>
      <InstallationPanel />
    </>
  );
}
