import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { Calibration, Certificate, CreateCalibrationRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call, endpointPath } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { downloadFile } from '@/lib/download-file';
import { calibrationKeys } from '../calibration-keys';
import { LOAD_ERROR } from '@/lib/fallback-text';

/** endpoints.calibrations.list: a sensor's verifications, newest first (every member who sees the sensor). */
export function useCalibrations(sensorId: string) {
  const owner = useOwner();
  return useQuery({
    queryKey: calibrationKeys.list(owner, sensorId),
    queryFn: async ({ signal }): Promise<Calibration[]> => {
      const data = await call(endpoints.calibrations.list, {
        params: { id: sensorId },
        signal,
      });
      if (!Array.isArray(data?.calibrations)) throw new Error(LOAD_ERROR);
      return data.calibrations;
    },
    enabled: Boolean(owner && sensorId),
  });
}

/**
 * endpoints.calibrations.create (admins and managers): 400 or 404 with the reason. The register
 * follows, and so does what the correction changes: `related` names those queries (the sensor's
 * readings and latest values, which the server now stores corrected).
 */
export function useCreateCalibration(sensorId: string, { related = [] }: { related?: readonly QueryKey[] } = {}) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: async (calibration: CreateCalibrationRequest): Promise<Calibration> => {
      const data = await call(endpoints.calibrations.create, {
        params: { id: sensorId },
        body: calibration,
      });
      if (!data?.calibration) throw new Error('Réponse du serveur illisible.');
      return data.calibration;
    },
    onSuccess: () => {
      for (const queryKey of related) void queryClient.invalidateQueries({ queryKey });
      return queryClient.invalidateQueries({ queryKey: calibrationKeys.list(owner, sensorId) });
    },
  });
}

/** endpoints.calibrations.certificate: the file as it was given, fetched with the session's token and saved. */
export function downloadCertificate({
  sensorId,
  calibrationId,
  certificate,
}: {
  sensorId: string;
  calibrationId: string;
  certificate: Pick<Certificate, 'fileName' | 'contentType'>;
}): Promise<string> {
  return downloadFile(endpointPath(endpoints.calibrations.certificate, { id: sensorId, calibrationId }), {
    accept: certificate.contentType,
    fallbackName: certificate.fileName,
  });
}

export function useDownloadCertificate() {
  return useMutation({ mutationFn: downloadCertificate });
}
