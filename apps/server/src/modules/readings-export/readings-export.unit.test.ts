import { describe, expect, it } from 'vitest';
import { localTimestamp, type ReadingsPage, readingsCsv } from './readings-export.ts';

describe('the export of every reading', () => {
  it('writes each time in the shop’s wall clock, across daylight saving changes', () => {
    const paris = localTimestamp('Europe/Paris');
    expect(paris(new Date('2026-03-29T00:59:59.900Z'))).toBe('2026-03-29 01:59:59');
    expect(paris(new Date('2026-03-29T01:00:00Z'))).toBe('2026-03-29 03:00:00');
    expect(paris(new Date('2026-10-25T00:30:00Z'))).toBe('2026-10-25 02:30:00');
    expect(paris(new Date('2026-10-25T01:30:00Z'))).toBe('2026-10-25 02:30:00');
    expect(localTimestamp('Asia/Kolkata')(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01 05:30:00');
    expect(localTimestamp('America/St_Johns')(new Date('2026-07-01T12:00:00Z'))).toBe('2026-07-01 09:30:00');
  });

  it('asks the database for a page only once the previous one was taken, whatever the number of lines', async () => {
    const pageSize = 5000;
    const pages = 40;
    let asked = 0;
    const page: ReadingsPage = async (_sensorId, after, limit) => {
      asked += 1;
      const start = after ? after.id + 1 : 0;
      const count = start >= pages * pageSize ? 0 : limit;
      return Array.from({ length: count }, (_, index) => ({
        ts: new Date(Date.UTC(2026, 0, 1) + (start + index) * 1000),
        key: 'temperature',
        id: start + index,
        value: 3.5,
      }));
    };
    const lines = readingsCsv([{ id: 'capteur-1', name: '=Vitrine; froide', siteName: 'Magasin', timeZone: 'Europe/Paris' }], page);
    const header = await lines.next();
    expect(header.value).toBe('\uFEFFcapteur;id;magasin;horodatage;mesure;valeur\r\n');
    expect(asked).toBe(0);
    const first = await lines.next();
    expect(asked).toBe(1);
    expect(String(first.value).split('\r\n')[0]).toBe('"\'=Vitrine; froide";capteur-1;Magasin;2026-01-01 01:00:00;temperature;3,5');
    let rows = String(first.value).split('\r\n').length - 1;
    for await (const chunk of lines) {
      rows += chunk.split('\r\n').length - 1;
      // Never more than one page ahead of what was sent.
      expect(asked * pageSize - rows).toBeLessThanOrEqual(pageSize);
    }
    expect(rows).toBe(pages * pageSize);
  });
});
