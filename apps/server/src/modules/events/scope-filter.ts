import type { LiveEvent } from './live-event.ts';

/**
 * What a member who sees some sites receives of their organization's live stream: the readings,
 * devices, alerts, reports and tasks of those sites only, as if the others were another organization's.
 * What a device's event carries is decided from the device's site when the event is delivered:
 * - `devices` are the organization's devices in those sites when the stream opens (the trash
 *   included), the ones whose readings, restorations and deletions are shown;
 * - an event heard live (`replayed` false) comes after that reading, in order: a device event
 *   whose device is in the sites adds it, one whose device left them is announced as its deletion
 *   (`deleted`), once, and one of a device that never was in them is left out;
 * - an event replayed to a stream that opens (the last seconds, or what it missed) happened
 *   before that reading: it is judged by where the device is now, never by where it was, so a
 *   device since moved to another site, or deleted there, is not mentioned; a device event is
 *   shown when the device is in the sites now and the event puts it there.
 * Alerts, reports and tasks belong to their own site, kept with them.
 */
export function scopeFilter(
  sites: ReadonlySet<string>,
  devices: Iterable<string>,
): (event: LiveEvent, replayed?: boolean) => LiveEvent | null {
  const visible = new Set(devices);
  return (event, replayed = false) => {
    switch (event.type) {
      case 'reading':
        return visible.has(event.data.deviceId) ? event : null;
      case 'device': {
        const data = event.data;
        if (data.action === 'deleted') return visible.has(data.deviceId) ? event : null;
        if (replayed) return visible.has(data.device.id) && sites.has(data.device.siteId) ? event : null;
        if (sites.has(data.device.siteId)) {
          visible.add(data.device.id);
          return event;
        }
        if (!visible.delete(data.device.id)) return null;
        return { ...event, data: { action: 'deleted', kind: data.kind, deviceId: data.device.id } };
      }
      case 'revoked':
      case 'restored':
        return visible.has(event.data.deviceId) ? event : null;
      case 'alert':
        return event.data.alert.siteId !== null && sites.has(event.data.alert.siteId) ? event : null;
      case 'report':
        return sites.has(event.data.report.siteId) ? event : null;
      case 'task':
        return sites.has(event.data.task.siteId) ? event : null;
      default:
        return event;
    }
  };
}
