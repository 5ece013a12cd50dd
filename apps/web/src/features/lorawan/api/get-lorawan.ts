import { useQuery } from '@tanstack/react-query';
import type { Codec, Integration, LorawanDevice, PendingLorawanDevice } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { lorawanKeys } from './lorawan-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** A list out of its response's wrapper; a response without it is a failed load. */
function listOf<T>(list: T[] | undefined): T[] {
  if (!Array.isArray(list)) throw new Error(LOAD_ERROR);
  return list;
}

/** endpoints.integrations.list: the network servers Vigie listens to (never their secret). */
export async function getIntegrations({ signal }: { signal?: AbortSignal } = {}): Promise<Integration[]> {
  return listOf((await call(endpoints.integrations.list, { signal }))?.integrations);
}

/** endpoints.lorawan.codecs: the built-in codecs, the network server's own decoding, then the organization's pasted codecs. */
export async function getCodecs({ signal }: { signal?: AbortSignal } = {}): Promise<Codec[]> {
  return listOf((await call(endpoints.lorawan.codecs, { signal }))?.codecs);
}

/** endpoints.lorawan.devices: the registered devices and their last signal. */
export async function getLorawanDevices({ signal }: { signal?: AbortSignal } = {}): Promise<LorawanDevice[]> {
  return listOf((await call(endpoints.lorawan.devices, { signal }))?.devices);
}

/** endpoints.lorawan.pending: « Nouveaux appareils détectés », unknown DevEUIs that sent frames. */
export async function getPendingDevices({ signal }: { signal?: AbortSignal } = {}): Promise<PendingLorawanDevice[]> {
  return listOf((await call(endpoints.lorawan.pending, { signal }))?.devices);
}

export function useIntegrations() {
  const owner = useOwner();
  return useQuery({
    queryKey: lorawanKeys.integrations(owner),
    queryFn: ({ signal }) => getIntegrations({ signal }),
    enabled: Boolean(owner),
    // « Dernier message » moves while the network server sends.
    refetchInterval: 30_000,
  });
}

export function useCodecs() {
  const owner = useOwner();
  return useQuery({
    queryKey: lorawanKeys.codecs(owner),
    queryFn: ({ signal }) => getCodecs({ signal }),
    enabled: Boolean(owner),
    // Built into the server, or pasted on this page, which reads them again after a change.
    staleTime: Infinity,
  });
}

export function useLorawanDevices() {
  const owner = useOwner();
  return useQuery({
    queryKey: lorawanKeys.devices(owner),
    queryFn: ({ signal }) => getLorawanDevices({ signal }),
    enabled: Boolean(owner),
    refetchInterval: 30_000,
  });
}

/** Read again every 10 s: a sensor switched on in the shop shows up while the page is open. */
export function usePendingDevices() {
  const owner = useOwner();
  return useQuery({
    queryKey: lorawanKeys.pending(owner),
    queryFn: ({ signal }) => getPendingDevices({ signal }),
    enabled: Boolean(owner),
    refetchInterval: 10_000,
  });
}
