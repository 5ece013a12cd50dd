import { LoaderCircle } from 'lucide-react';
import { useParams } from 'react-router';
import { PRODUCT_NAME } from '@/config/constants';
import { useDevice } from '@/features/devices/api/get-device';
import { DeviceDetail } from '@/features/devices/components/device-detail';
import { deviceDisplayName, type DeviceKind } from '@/features/devices/device-kinds';
import { ErrorPage } from '@/features/errors/components/error-page';
import { ERROR_CONTENT } from '@/features/errors/error-content';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { SignedInShell } from '../signed-in-shell';

/** /dashboard/capteurs/:id and /dashboard/emetteurs/:id; another organization's device is a 404. */
export default function DeviceDetailRoute({ kind }: { kind: DeviceKind }) {
  const { id = '' } = useParams();
  const query = useDevice({ kind, id });

  // A malformed id (400) is a page that does not exist either.
  if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400)) {
    return <ErrorPage content={ERROR_CONTENT['404']} />;
  }

  return (
    <SignedInShell>
      <title>{`${query.data ? deviceDisplayName(query.data) : kind === 'sensor' ? 'Capteur' : 'Émetteur'} · ${PRODUCT_NAME}`}</title>
      {query.data ? (
        <DeviceDetail key={query.data.id} kind={kind} device={query.data} />
      ) : query.isError ? (
        <p role="alert" className="rounded-2xl border border-red-400/40 bg-red-500/10 p-4 text-sm text-red-100">
          {errorMessage(query.error, 'Error loading data')}
        </p>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement de l’appareil...
        </p>
      )}
    </SignedInShell>
  );
}
