import type { Alert, AlertEvent } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/testing/render';
import { AlertDetail } from './alert-detail';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
const ID = '0b9f2c4e-6d8a-4b1c-9e3f-5a7b9c1d3e5f';

function alertWith(events: AlertEvent[] = []): Alert {
  return {
    id: ID,
    ruleId: 'a1a1a1a1-1111-4111-8111-111111111111',
    sensorId: '5d1c3f8e-2b4a-4c6d-9e8f-7a6b5c4d3e2f',
    siteId: '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
    status: 'acknowledged',
    severity: 'critical',
    key: 'temperature',
    openedAt: '2026-11-23T12:30:00.000Z',
    acknowledgedAt: '2026-11-23T12:32:00.000Z',
    acknowledgedBy: '9f0c6b1e-5d8a-4f6b-9a34-2b1f0e7c1d11',
    resolvedAt: null,
    resolution: null,
    peak: 9.3,
    last: 9.3,
    events: [{ type: 'opened', at: '2026-11-23T12:30:00.000Z' }, ...events],
  };
}

/** The bodies POSTed to the alert's actions. */
let posts: unknown[];
/** The server's answer to the next action, when it refuses it. */
let refusal: string | null;

beforeEach(() => {
  posts = [];
  refusal = null;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url === `/api/alerts/${ID}/actions` && init?.method === 'POST') {
      posts.push(JSON.parse(String(init.body)));
      if (refusal) return jsonResponse(400, { message: refusal });
      return jsonResponse(201, { alert: alertWith([{ type: 'action', at: '2026-11-23T12:40:00.000Z', text: 'Produits transférés' }]) });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAlert(alert = alertWith()) {
  const user = userEvent.setup();
  renderWithProviders(<AlertDetail alert={alert} rule={undefined} sensorName="Vitrine crèmerie" siteName="Lyon" who={() => null} />);
  const form = screen.getByRole('group', { name: 'Action corrective' });
  return { user, form };
}

describe('the guided corrective action', () => {
  it('sends the action chosen, the words written and the products’ fate, the quantity read with a decimal comma', async () => {
    const { user, form } = renderAlert();
    const kinds = within(form).getByLabelText('Action');
    expect(within(kinds).getAllByRole('option')[0]).toHaveTextContent('Choisir une action…');
    await user.selectOptions(kinds, 'Produits transférés dans un autre meuble');
    await user.type(within(form).getByLabelText('Précisions'), '  Vers la chambre froide n° 2.  ');
    // The fate's fields show only once products are concerned.
    expect(within(form).queryByLabelText('Produit')).not.toBeInTheDocument();
    await user.click(within(form).getByLabelText('Des produits sont concernés'));
    const fate = within(form).getByRole('group', { name: 'Devenir des produits' });
    await user.click(within(within(fate).getByRole('group', { name: 'Devenir' })).getByLabelText('Détruits'));
    await user.type(within(fate).getByLabelText('Produit'), 'Yaourts nature');
    await user.type(within(fate).getByLabelText('Quantité'), '12,5');
    await user.selectOptions(within(fate).getByLabelText('Unité'), 'kg');
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’action' }));

    expect(await screen.findByText('Action enregistrée.')).toBeInTheDocument();
    expect(posts).toEqual([
      {
        kind: 'products_moved',
        text: 'Vers la chambre froide n° 2.',
        fate: { outcome: 'destroyed', product: 'Yaourts nature', quantity: { value: 12.5, unit: 'kg' } },
      },
    ]);
    // Ready for the next one.
    expect(within(form).getByLabelText('Action')).toHaveValue('');
    expect(within(form).getByLabelText('Des produits sont concernés')).not.toBeChecked();
  });

  it('sends only what was given: a kind alone, or words alone', async () => {
    const { user, form } = renderAlert();
    await user.selectOptions(within(form).getByLabelText('Action'), 'Porte refermée');
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’action' }));
    await screen.findByText('Action enregistrée.');
    // The text area is also named by the form's title, as before the list of actions.
    await user.type(within(form).getByLabelText('Action corrective'), 'Produits déplacés en chambre froide.');
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’action' }));
    await vi.waitFor(() => expect(posts).toHaveLength(2));
    expect(posts).toEqual([{ kind: 'door_closed' }, { text: 'Produits déplacés en chambre froide.' }]);
  });

  it('asks for words with « Autre action » and sends nothing', async () => {
    const { user, form } = renderAlert();
    await user.selectOptions(within(form).getByLabelText('Action'), 'Autre action');
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’action' }));
    expect(plain(within(form.closest('form') as HTMLElement).getByRole('alert').textContent)).toBe(
      '« Autre action » : décrivez-la dans « Précisions ».',
    );
    expect(within(form).getByLabelText('Précisions')).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);
  });

  it('asks for the product and a positive quantity when products are concerned', async () => {
    const { user, form } = renderAlert();
    const submit = screen.getByRole('button', { name: 'Enregistrer l’action' });
    await user.click(submit);
    expect(within(form.closest('form') as HTMLElement).getByRole('alert')).toHaveTextContent(
      'Choisissez une action dans la liste ou décrivez ce qui a été fait.',
    );
    await user.selectOptions(within(form).getByLabelText('Action'), 'Meuble vidé et mis hors service');
    await user.click(within(form).getByLabelText('Des produits sont concernés'));
    await user.click(within(form).getByLabelText('Déclassés'));
    await user.type(within(form).getByLabelText('Produit'), 'Crème fraîche');
    await user.type(within(form).getByLabelText('Quantité'), 'douze');
    await user.click(submit);
    expect(plain(within(form.closest('form') as HTMLElement).getByRole('alert').textContent)).toBe(
      'Indiquez une quantité positive, par exemple « 12,5 ».',
    );
    expect(within(form).getByLabelText('Quantité')).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);
  });

  it('shows the server’s refusal as it comes', async () => {
    refusal = '« Autre action » demande un texte qui la décrit.';
    const { user, form } = renderAlert();
    await user.type(within(form).getByLabelText('Précisions'), 'Vérifié.');
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’action' }));
    expect(await within(form.closest('form') as HTMLElement).findByRole('alert')).toHaveTextContent(refusal);
  });
});

describe('a guided action in the timeline', () => {
  it('shows its label, the words written and what became of the products', () => {
    renderAlert(
      alertWith([
        {
          type: 'action',
          at: '2026-11-23T12:40:00.000Z',
          text: 'Vers la chambre froide n° 2.',
          action: {
            kind: 'products_moved',
            fate: { outcome: 'destroyed', product: 'Yaourts nature', quantity: { value: 12, unit: 'kg' } },
          },
        },
        // Nothing written: the event's text is the label, shown once.
        { type: 'action', at: '2026-11-23T12:45:00.000Z', text: 'Porte refermée', action: { kind: 'door_closed', fate: null } },
        { type: 'action', at: '2026-11-23T12:50:00.000Z', text: 'Texte libre d’avant.' },
        {
          type: 'action',
          at: '2026-11-23T12:55:00.000Z',
          text: 'Meuble vidé et mis hors service',
          action: {
            kind: 'unit_emptied',
            fate: { outcome: 'kept', product: 'Emmental râpé', quantity: { value: 1500.5, unit: 'pièces' } },
          },
        },
      ]),
    );
    const items = within(screen.getByRole('list', { name: 'Chronologie de l’alerte' })).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    const [, moved, closed, free, emptied] = items;
    expect(plain(moved?.textContent)).toContain('Produits transférés dans un autre meuble');
    expect(plain(moved?.textContent)).toContain('Vers la chambre froide n° 2.');
    expect(within(moved as HTMLElement).getByTestId('action-fate').textContent).toBe(
      'Produits détruits\u202F: 12\u202Fkg de Yaourts nature',
    );
    expect(closed?.textContent?.match(/Porte refermée/g)).toHaveLength(1);
    expect(within(closed as HTMLElement).queryByTestId('action-fate')).not.toBeInTheDocument();
    expect(free).toHaveTextContent('Texte libre d’avant.');
    expect(plain(within(emptied as HTMLElement).getByTestId('action-fate').textContent)).toBe(
      'Produits conservés : 1 500,5 pièces d’Emmental râpé',
    );
  });
});
