import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CreateReportRequest, Report, SignReportRequest } from '@vigie/contract';
import { endpoints } from '@vigie/contract/routes';
import { call } from '@/lib/api-client';
import { useOwner } from '@/lib/auth';
import { reportKeys } from '../report-keys';

/**
 * A report made or signed shows at once in the lists already loaded that it belongs to (all
 * sites, or its own), in its place, newest first; then they are read again.
 */
export function putReport(queryClient: QueryClient, owner: string, report: Report): void {
  for (const siteId of [null, report.siteId]) {
    queryClient.setQueryData<Report[]>(reportKeys.list(owner, siteId), (list) => {
      if (!list) return list;
      if (list.some((item) => item.id === report.id)) return list.map((item) => (item.id === report.id ? report : item));
      return [report, ...list].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
    });
  }
  void queryClient.invalidateQueries({ queryKey: reportKeys.lists(owner) });
}

async function readReport(task: Promise<{ report?: Report } | undefined>): Promise<Report> {
  const data = await task;
  if (!data?.report) throw new Error('Réponse du serveur illisible.');
  return data.report;
}

/** endpoints.reports.create: the report of a site and month, made from the data as it stands. */
export const createReport = (request: CreateReportRequest) => readReport(call(endpoints.reports.create, { body: request }));

/** endpoints.reports.sign, with an optional comment. */
export const signReport = ({ id, comment }: { id: string } & SignReportRequest) =>
  readReport(call(endpoints.reports.sign, { params: { id }, body: comment ? { comment } : {} }));

function useReportWrite<T>(run: (input: T) => Promise<Report>) {
  const queryClient = useQueryClient();
  const owner = useOwner();
  return useMutation({
    mutationFn: run,
    onSuccess: (report) => putReport(queryClient, owner, report),
    // 409 (signed meanwhile by someone else): the list shows who did.
    onError: () => void queryClient.invalidateQueries({ queryKey: reportKeys.lists(owner) }),
  });
}

export const useCreateReport = () => useReportWrite(createReport);
export const useSignReport = () => useReportWrite(signReport);
