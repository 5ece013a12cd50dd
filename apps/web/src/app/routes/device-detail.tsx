import { LoaderCircle } from 'lucide-react';
import { useLayoutEffect } from 'react';
import { useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { PRODUCT_NAME } from '@/config/constants';
import { useDevice } from '@/features/devices/api/get-device';
import { DeviceDetail } from '@/features/devices/components/device-detail';
import { DEVICE_PRESENTATION } from '@/features/devices/device-presentation';
import { deviceDisplayName, type DeviceKind } from '@/features/devices/device-kinds';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { useSignedInOutlet } from '../signed-in-outlet';

/** /dashboard/capteurs/:id and /dashboard/emetteurs/:id; another organization's device is a 404. */
export default function DeviceDetailRoute({ kind }: { kind: DeviceKind }) {
  const { id = '' } = useParams();
  const query = useDevice({ kind, id });
  const { showNotFound } = useSignedInOutlet();
  // A malformed id (400) is a page that does not exist either.
  const notFound = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);

  useLayoutEffect(() => {
    if (notFound) showNotFound();
  }, [notFound, showNotFound]);

  if (notFound) return null;

  return (
    <>
      <title>{`${query.data ? deviceDisplayName(query.data) : DEVICE_PRESENTATION[kind].singular} · ${PRODUCT_NAME}`}</title>
      {query.data ? (
        <DeviceDetail key={query.data.id} kind={kind} device={query.data} />
      ) : query.isError ? (
        <Alert>{errorMessage(query.error, 'Error loading data')}</Alert>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-300">
          <LoaderCircle className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" />
          Chargement de l’appareil…
        </p>
      )}
    </>
  );
}
