import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProtocolInfo } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.devices.protocol (public): the MQTT port and paths of this server. */
export async function getProtocol(signal?: AbortSignal): Promise<ProtocolInfo> {
  const data = await call(endpoints.devices.protocol, { signal });
  if (!data) throw new Error(LOAD_ERROR);
  return data;
}

export function protocolQueryOptions() {
  return queryOptions({ queryKey: ['device-protocol'], queryFn: ({ signal }) => getProtocol(signal), staleTime: Infinity });
}

export function useProtocol() {
  return useQuery(protocolQueryOptions());
}
