import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download-file';
import { DEVICE_KINDS, type DeviceKind } from '../device-kinds';

export type ExportParams = { from: string; to: string; key?: string | null; timeZone?: string };

/** GET /api/sensor/:id/readings.csv, saved under the name the server proposes. */
export async function exportReadings({ kind, id, params }: { kind: DeviceKind; id: string; params: ExportParams }): Promise<string> {
  const query = new URLSearchParams({ from: params.from, to: params.to, tz: params.timeZone ?? 'Europe/Paris' });
  if (params.key) query.set('key', params.key);
  return downloadFile(`${DEVICE_KINDS[kind].path}/${encodeURIComponent(id)}/readings.csv?${query}`, {
    accept: 'text/csv',
    fallbackName: 'mesures.csv',
  });
}

export function useExportReadings({ kind, id }: { kind: DeviceKind; id: string }) {
  return useMutation({ mutationFn: (params: ExportParams) => exportReadings({ kind, id, params }) });
}
