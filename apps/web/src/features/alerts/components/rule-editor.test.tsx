import type { Rule } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { RuleEditor } from './rule-editor';

const SENSOR = '0b4c6a3e-1f2d-4e5a-9b8c-7d6e5f4a3b2c';
let rules: Rule[];
let posted: unknown[];

beforeEach(() => {
  rules = [];
  posted = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if ((init?.method ?? 'GET') === 'GET' && url.startsWith('/api/alert-rules')) return jsonResponse(200, { rules });
    if (init?.method === 'POST' && url === '/api/alert-rules') {
      const body = JSON.parse(String(init.body)) as Pick<
        Rule,
        'name' | 'condition' | 'delaySeconds' | 'hysteresis' | 'schedule' | 'severity'
      >;
      posted.push(body);
      const rule: Rule = {
        id: '5b8f0a4e-2d1c-4e7b-9a6f-3c2d1e0f9a8b',
        enabled: true,
        sensorId: SENSOR,
        siteId: null,
        preset: null,
        createdAt: '2026-11-23T13:10:00.000Z',
        updatedAt: '2026-11-23T13:10:00.000Z',
        ...body,
      };
      rules = [rule];
      return jsonResponse(201, { rule });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openPredictedForm() {
  const user = userEvent.setup();
  renderWithProviders(<RuleEditor target={{ sensorId: SENSOR }} />);
  await screen.findByText('Aucune règle : ce capteur n’est pas surveillé.');
  await user.click(screen.getByRole('button', { name: 'Règle personnalisée…' }));
  await user.type(screen.getByLabelText('Nom de la règle'), 'Vitrine : prévision');
  await user.selectOptions(screen.getByLabelText('Condition'), 'Dépassement prévu');
  return user;
}

describe('RuleEditor « Dépassement prévu »', () => {
  it('offers the direction, the measure, the threshold and a horizon of 120 minutes by default', async () => {
    await openPredictedForm();
    expect(screen.getByLabelText('Sens')).toHaveDisplayValue('Au-dessus du seuil');
    expect(screen.getByLabelText('Mesure')).toHaveValue('temperature');
    expect(screen.getByLabelText('Seuil')).toHaveValue('');
    const within = screen.getByLabelText('Prévu dans les (min)');
    expect(within).toHaveValue('120');
    expect(within).toHaveAccessibleDescription(/De 15 à 240\u00A0minutes/);
  });

  it('refuses a horizon out of 15–240 minutes or not whole, with French messages', async () => {
    const user = await openPredictedForm();
    const horizon = screen.getByLabelText('Prévu dans les (min)');
    const submit = screen.getByRole('button', { name: 'Créer la règle' });

    await user.click(submit);
    expect(screen.getByRole('alert').textContent).toBe('Indiquez le seuil.');

    await user.type(screen.getByLabelText('Seuil'), '8');
    for (const [typed, message] of [
      ['300', 'L’horizon de prévision va de 15 à 240\u00A0minutes.'],
      ['10', 'L’horizon de prévision va de 15 à 240\u00A0minutes.'],
      ['12,5', 'L’horizon de prévision doit être un nombre entier de minutes.'],
      ['deux heures', 'L’horizon de prévision doit être un nombre de minutes.'],
      ['', 'Indiquez l’horizon de prévision, de 15 à 240\u00A0minutes.'],
    ] as const) {
      await user.clear(horizon);
      if (typed) await user.type(horizon, typed);
      await user.click(submit);
      expect(screen.getByRole('alert').textContent).toBe(message);
    }
    expect(posted).toEqual([]);
  });

  it('creates a predicted_above rule, then a predicted_below one, and lists it in words', async () => {
    const user = await openPredictedForm();
    await user.type(screen.getByLabelText('Seuil'), '8');
    await user.click(screen.getByRole('button', { name: 'Créer la règle' }));
    expect(posted[0]).toMatchObject({
      name: 'Vitrine : prévision',
      sensorId: SENSOR,
      condition: { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 120 },
    });
    const row = await screen.findByTestId('alert-rule');
    expect(within(row).getByText(/^Prévision/).textContent).toContain('Prévision\u202F: Température ≤ +8,0\u202F°C sur 120\u202Fmin');

    await user.click(screen.getByRole('button', { name: 'Règle personnalisée…' }));
    await user.type(screen.getByLabelText('Nom de la règle'), 'Congélateur : prévision');
    await user.selectOptions(screen.getByLabelText('Condition'), 'Dépassement prévu');
    await user.selectOptions(screen.getByLabelText('Sens'), 'En dessous du seuil');
    await user.type(screen.getByLabelText('Seuil'), '−25');
    await user.clear(screen.getByLabelText('Prévu dans les (min)'));
    await user.type(screen.getByLabelText('Prévu dans les (min)'), '45');
    await user.click(screen.getByRole('button', { name: 'Créer la règle' }));
    expect(posted[1]).toMatchObject({ condition: { type: 'predicted_below', key: 'temperature', threshold: -25, withinMinutes: 45 } });
  });
});

describe('RuleEditor for a viewer', () => {
  it('lists the rules without any control to add or delete one', async () => {
    rules = [
      {
        id: '5b8f0a4e-2d1c-4e7b-9a6f-3c2d1e0f9a8b',
        name: 'Vitrine ≤ +4 °C',
        enabled: true,
        sensorId: SENSOR,
        siteId: null,
        preset: null,
        condition: { type: 'above', key: 'temperature', threshold: 4 },
        delaySeconds: 300,
        hysteresis: 0.5,
        schedule: 'always',
        severity: 'critical',
        createdAt: '2026-11-23T13:10:00.000Z',
        updatedAt: '2026-11-23T13:10:00.000Z',
      },
    ];
    const auth = fakeAuth();
    renderWithProviders(<RuleEditor target={{ sensorId: SENSOR }} />, {
      auth: { ...auth, user: auth.user && { ...auth.user, role: 'viewer' } },
    });
    expect(await screen.findByTestId('alert-rule')).toHaveTextContent('Vitrine ≤ +4 °C');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('RuleEditor for a rule laid by a template', () => {
  const SITE = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
  const REFUSAL =
    'Cette règle vient du modèle « Crèmerie ≤ +4 °C », verrouillé pour toute l’organisation : ce magasin peut la resserrer, pas relâcher sa limite.';
  const laid: Rule = {
    id: '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a',
    name: 'Crèmerie ≤ +4 °C',
    enabled: true,
    sensorId: null,
    siteId: SITE,
    preset: 'chilled_very_perishable',
    condition: { type: 'above', key: 'temperature', threshold: 4 },
    delaySeconds: 300,
    hysteresis: 0.5,
    schedule: 'always',
    severity: 'critical',
    template: { id: '2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b', name: 'Crèmerie ≤ +4 °C', locked: true },
    createdAt: '2026-11-23T13:10:00.000Z',
    updatedAt: '2026-11-23T13:10:00.000Z',
  };
  let puts: unknown[];

  beforeEach(() => {
    puts = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (method === 'GET' && url === `/api/alert-rules?siteId=${SITE}`) return jsonResponse(200, { rules: [laid] });
      if (method === 'PUT' && url === `/api/alert-rules/${laid.id}`) {
        puts.push(JSON.parse(String(init?.body)));
        return jsonResponse(403, { message: REFUSAL });
      }
      return jsonResponse(404, { message: 'Introuvable' });
    });
  });

  it('shows its template, locked, offers no delete but a hint, and shows the server’s refusal to loosen it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RuleEditor target={{ siteId: SITE }} />);
    const row = await screen.findByTestId('alert-rule');
    expect(within(row).getByText(/^Modèle/).textContent).toBe('Modèle «\u202FCrèmerie ≤ +4 °C\u202F»');
    expect(within(row).getByText('verrouillé')).toBeInTheDocument();
    expect(within(row).getByText('Retirez ce magasin du modèle pour l’enlever.')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Supprimer/ })).toBeNull();

    // Editing stays: loosening is refused by the server, its message shown as it comes.
    await user.click(within(row).getByRole('button', { name: 'Modifier la règle Crèmerie ≤ +4 °C' }));
    expect(within(row).getByLabelText('Seuil')).toHaveValue('4');
    await user.clear(within(row).getByLabelText('Seuil'));
    await user.type(within(row).getByLabelText('Seuil'), '6');
    await user.click(within(row).getByRole('button', { name: 'Enregistrer la règle' }));
    expect(await within(row).findByRole('alert')).toHaveTextContent(REFUSAL);
    expect(puts).toEqual([
      {
        name: 'Crèmerie ≤ +4 °C',
        condition: { type: 'above', key: 'temperature', threshold: 6 },
        delaySeconds: 300,
        hysteresis: 0.5,
        schedule: 'always',
        severity: 'critical',
      },
    ]);
  });
});
