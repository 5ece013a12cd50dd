import { describe, expect, it } from 'vitest';
import { csvRows, describeMeasure } from './readings-csv.ts';

describe('readings CSV', () => {
  it('names the measures the devices send in French, with their unit', () => {
    expect(describeMeasure('temperature')).toEqual({ label: 'Température', unit: '°C' });
    expect(describeMeasure('humidity')).toEqual({ label: 'Humidité', unit: '%' });
    expect(describeMeasure('co2')).toEqual({ label: 'CO₂', unit: 'ppm' });
    expect(describeMeasure('battery')).toEqual({ label: 'Batterie', unit: '%' });
    expect(describeMeasure('open')).toEqual({ label: 'Porte ouverte', unit: '' });
    expect(describeMeasure('visitors')).toEqual({ label: 'Visiteurs', unit: '' });
  });

  it('keeps the raw name of an unknown measure, with an empty unit', async () => {
    expect(describeMeasure('pm25')).toEqual({ label: 'pm25', unit: '' });
    const rows = [{ ts: new Date('2026-01-15T08:30:00Z'), key: 'pm25', value: 12.5, id: 1 }];
    const lines: string[] = [];
    for await (const chunk of csvRows(async (after) => (after ? [] : rows), 'Europe/Paris')) lines.push(chunk);
    expect(lines).toEqual([
      '\uFEFFDate et heure (locale);Horodatage UTC;Mesure;Valeur;Unité\r\n',
      '15/01/2026 09:30:00;2026-01-15T08:30:00.000Z;pm25;12,5;\r\n',
    ]);
  });
});
