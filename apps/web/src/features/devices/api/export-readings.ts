import { useMutation } from '@tanstack/react-query';
import { endpoints } from '@vigie/contract/routes';
import { endpointPath } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';
import type { DeviceKind } from '../device-kinds';

export type ExportParams = { from: string; to: string; key?: string | null; timeZone?: string };

/** endpoints.sensor.readingsCsv (or the emitter's), saved under the name the server proposes. */
export async function exportReadings({ kind, id, params }: { kind: DeviceKind; id: string; params: ExportParams }): Promise<string> {
  const query = { from: params.from, to: params.to, tz: params.timeZone ?? 'Europe/Paris', key: params.key || undefined };
  return downloadFile(endpointPath(endpoints[kind].readingsCsv, { id }, query), {
    accept: 'text/csv',
    fallbackName: 'mesures.csv',
  });
}

export function useExportReadings({ kind, id }: { kind: DeviceKind; id: string }) {
  return useMutation({ mutationFn: (params: ExportParams) => exportReadings({ kind, id, params }) });
}
