import type { QueryClient } from '@tanstack/react-query';
import type { ReportStreamEvent } from '@vigie/contract';
import type { SseMessage } from '@/lib/sse-parser';
import { putReport } from './api/report-mutations';
import { formatReportMonth } from './report-format';
import { reportKeys } from './report-keys';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isReportEvent(data: unknown): data is ReportStreamEvent {
  if (!isObject(data) || !isObject(data['report'])) return false;
  const report = data['report'];
  return (
    ['created', 'signed'].includes(String(data['action'])) &&
    typeof report['id'] === 'string' &&
    typeof report['siteId'] === 'string' &&
    typeof report['month'] === 'string' &&
    typeof report['createdAt'] === 'string' &&
    isObject(report['summary']) &&
    Array.isArray(report['summary']['units'])
  );
}

/**
 * A `report` event of the live stream (made by a person or by the monthly job, or signed): the
 * lists take it at once, then are read again. Returns the event, for a toast.
 */
export function applyReportEvent(queryClient: QueryClient, owner: string, message: SseMessage): ReportStreamEvent | null {
  // The stream could not replay what was missed: the reports are read again.
  if (message.event === 'resync') {
    void queryClient.invalidateQueries({ queryKey: reportKeys.all(owner) });
    return null;
  }
  if (message.event !== 'report') return null;
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return null;
  }
  if (!isReportEvent(data)) return null;
  putReport(queryClient, owner, data.report);
  return data;
}

/**
 * The in-app notice of a report made by the monthly job or by someone else: « Rapport de
 * novembre 2026 prêt — Magasin X ». None for the person who just made it (their form says so).
 */
export function reportReadyMessage(event: ReportStreamEvent, owner: string): string | null {
  if (event.action !== 'created') return null;
  const { report } = event;
  if (!report.automatic && report.createdBy === owner) return null;
  return `Rapport de ${formatReportMonth(report.month)} prêt — ${report.summary.siteName}`;
}
