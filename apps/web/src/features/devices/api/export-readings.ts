import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '@/lib/api-client';
import { DEVICE_KINDS, type DeviceKind } from '../device-kinds';

export type ExportParams = { from: string; to: string; key?: string | null; timeZone?: string };

/** The file name the server proposes in Content-Disposition, or `fallback`. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // Fall through to the plain form.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * GET /api/sensor/:id/readings.csv with the bearer token, then saves the file through an
 * object URL (a plain link could not carry the Authorization header).
 */
export async function exportReadings({ kind, id, params }: { kind: DeviceKind; id: string; params: ExportParams }): Promise<string> {
  const query = new URLSearchParams({ from: params.from, to: params.to, tz: params.timeZone ?? 'Europe/Paris' });
  if (params.key) query.set('key', params.key);
  const { blob, disposition } = await apiBlob(`${DEVICE_KINDS[kind].path}/${encodeURIComponent(id)}/readings.csv?${query}`, {
    accept: 'text/csv',
  });
  const name = fileNameFrom(disposition, 'mesures.csv');
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

export function useExportReadings({ kind, id }: { kind: DeviceKind; id: string }) {
  return useMutation({ mutationFn: (params: ExportParams) => exportReadings({ kind, id, params }) });
}
