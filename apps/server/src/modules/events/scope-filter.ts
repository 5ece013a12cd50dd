import type { LiveEvent } from './live-event.ts';

/**
 * What a member who sees some sites receives of their organization's live stream: the readings,
 * devices, alerts and reports of those sites only, as if the others were another organization's.
 * A device moved out of the sites is announced as deleted. `devices` are the organization's
 * devices of those sites when the stream opens (the trash included).
 */
export function scopeFilter(sites: ReadonlySet<string>, devices: Iterable<string>): (event: LiveEvent) => LiveEvent | null {
  const visible = new Set(devices);
  return (event) => {
    switch (event.type) {
      case 'reading':
        return visible.has(event.data.deviceId) ? event : null;
      case 'device': {
        const data = event.data;
        if (data.action === 'deleted') return visible.has(data.deviceId) ? event : null;
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
      default:
        return event;
    }
  };
}
