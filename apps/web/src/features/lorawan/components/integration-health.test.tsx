import type { IntegrationHealth } from '@vigie/contract';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IntegrationHealthView } from './integration-health';

const NOW = Date.parse('2026-12-08T10:30:00Z');
const hours = (messages: number[], refused: number[]) =>
  messages.map((count, index) => ({
    hour: new Date(NOW - (23 - index) * 3_600_000).toISOString(),
    messages: count,
    refused: refused[index] ?? 0,
  }));

describe('IntegrationHealthView', () => {
  it('says when the network last spoke, how much in 24 h, and lists the refused messages with their French reason', () => {
    const health: IntegrationHealth = {
      lastMessageAt: new Date(NOW - 120_000).toISOString(),
      perHour: hours([...Array<number>(22).fill(0), 100, 32], [...Array<number>(23).fill(0), 3]),
      refused: [
        {
          at: new Date(NOW - 120_000).toISOString(),
          reason: 'bad_dev_eui',
          message: 'DevEUI absent ou invalide dans le message.',
          devEui: null,
        },
        {
          at: new Date(NOW - 600_000).toISOString(),
          reason: 'unknown_device',
          message: 'Appareil inconnu : gardé parmi les nouveaux appareils détectés.',
          devEui: '24e124136b502217',
        },
        { at: new Date(NOW - 900_000).toISOString(), reason: 'bad_secret', message: 'Secret d’intégration faux.', devEui: null },
      ],
    };
    render(<IntegrationHealthView health={health} name="TTN Lyon" now={NOW} />);
    const section = screen.getByRole('region', { name: 'Santé de l’intégration TTN Lyon' });
    expect(section.textContent).toMatch(/Dernier message reçu\u202F: il\sy\sa\s2\smin/);
    expect(section.textContent).toContain('132\u00A0messages en 24\u00A0h');
    expect(section.textContent).toContain('3\u00A0refusés');
    expect(screen.getByText('Derniers messages refusés (3)')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Messages refusés par l’intégration TTN Lyon' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('span')?.textContent)).toEqual([
      'DevEUI invalide',
      'Appareil inconnu',
      'Secret absent ou faux',
    ]);
    expect(items[1]?.textContent).toContain('24E1 2413 6B50 2217');
    expect(items[1]?.textContent).toContain('Appareil inconnu : gardé parmi les nouveaux appareils détectés.');
  });

  it('says « jamais » before any message and lists no refusal when there is none', () => {
    render(
      <IntegrationHealthView
        health={{ lastMessageAt: null, perHour: hours(Array<number>(24).fill(0), []), refused: [] }}
        name="Loriot"
        now={NOW}
      />,
    );
    const section = screen.getByTestId('integration-health');
    expect(section.textContent).toContain('Dernier message reçu\u202F: jamais · 0\u00A0message en 24\u00A0h');
    expect(section.textContent).not.toContain('refusé');
    expect(screen.queryByRole('list')).toBeNull();
  });
});
