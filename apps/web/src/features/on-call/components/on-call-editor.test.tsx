import type { Member, OnCallResponse } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { OnCallEditor } from './on-call-editor';

const SITE = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const MARIE = '6f1c2a52-6c8b-4a8e-9a57-2f0e1c9b8d11';
const PAUL = '7a2d3b63-7d9c-4b9f-8b68-3a1f2d0c9e22';
const members: Member[] = [
  { id: MARIE, name: 'Marie Dupont', email: 'marie@boutique.fr', role: 'manager', scope: null },
  { id: PAUL, name: 'Paul Martin', email: 'paul@boutique.fr', role: 'viewer', scope: null },
];
const LADDER = { smsAfterMinutes: 5, callAfterMinutes: 10, nextAfterMinutes: 15 };

let rota: OnCallResponse;
let puts: unknown[];
/** The answer to the next PUT, when the server refuses it. */
let refusal: string | null;

beforeEach(() => {
  rota = { onCall: { slots: [], ladder: LADDER, updatedAt: null }, now: { slot: null, people: [], holiday: null } };
  puts = [];
  refusal = null;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/members' && method === 'GET') return jsonResponse(200, { members });
    if (url === `/api/sites/${SITE}/on-call` && method === 'GET') return jsonResponse(200, rota);
    if (url === `/api/sites/${SITE}/on-call` && method === 'PUT') {
      const body = JSON.parse(String(init?.body)) as Pick<OnCallResponse['onCall'], 'slots' | 'ladder'>;
      puts.push(body);
      if (refusal) return jsonResponse(400, { message: refusal });
      rota = {
        onCall: { ...body, updatedAt: '2026-11-23T21:00:00.000Z' },
        now: {
          slot: 0,
          people: [
            { id: PAUL, name: 'Paul Martin', phone: '+33612345678' },
            { id: MARIE, name: 'Marie Dupont', phone: null },
          ],
          holiday: null,
        },
      };
      return jsonResponse(200, rota);
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function addSlotWithPeople() {
  const user = userEvent.setup();
  renderWithProviders(<OnCallEditor siteId={SITE} />);
  expect(await screen.findByText('Personne d’astreinte en ce moment.')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Ajouter un créneau' }));
  const slot = screen.getByRole('group', { name: 'Créneau 1' });
  expect(within(slot).getByLabelText('Nom du créneau')).toHaveValue('Nuits de semaine');
  expect(within(slot).getByLabelText('De')).toHaveValue('20:00');
  expect(within(slot).getByLabelText('À')).toHaveValue('07:00');
  for (const day of ['Lun', 'Mar', 'Mer', 'Jeu', 'Ven']) expect(within(slot).getByLabelText(day)).toBeChecked();
  for (const day of ['Sam', 'Dim', 'Jours fériés']) expect(within(slot).getByLabelText(day)).not.toBeChecked();

  const pick = within(slot).getByLabelText('Ajouter une personne');
  await within(slot).findByRole('option', { name: 'Marie Dupont' });
  await user.selectOptions(pick, 'Marie Dupont');
  await user.click(within(slot).getByRole('button', { name: 'Ajouter' }));
  await user.selectOptions(pick, 'Paul Martin');
  await user.click(within(slot).getByRole('button', { name: 'Ajouter' }));
  return { user, slot };
}

describe('OnCallEditor for an admin', () => {
  it('adds a slot with people in order and saves exactly that rota', async () => {
    const { user, slot } = await addSlotWithPeople();
    const people = within(slot).getByRole('list', { name: 'Personnes, dans l’ordre où elles sont prévenues' });
    expect(
      within(people)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Marie Dupont'), expect.stringContaining('Paul Martin')]);
    // Each person is named once: already in the slot, no longer offered.
    expect(within(slot).queryByRole('option', { name: 'Marie Dupont' })).toBeNull();

    await user.click(within(slot).getByRole('button', { name: 'Monter Paul Martin' }));
    expect(within(people).getAllByRole('listitem')[0]).toHaveTextContent('Paul Martin');
    await user.click(within(slot).getByLabelText('Ven'));
    await user.click(within(slot).getByLabelText('Jours fériés'));
    await user.clear(screen.getByLabelText('SMS après (min)'));
    await user.type(screen.getByLabelText('SMS après (min)'), '3');
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’astreinte' }));

    expect(await screen.findByText('Astreinte enregistrée.')).toBeInTheDocument();
    expect(puts).toEqual([
      {
        slots: [
          {
            name: 'Nuits de semaine',
            days: ['mon', 'tue', 'wed', 'thu', 'holiday'],
            from: '20:00',
            to: '07:00',
            people: [PAUL, MARIE],
          },
        ],
        ladder: { smsAfterMinutes: 3, callAfterMinutes: 10, nextAfterMinutes: 15 },
      },
    ]);
    expect(screen.getByTestId('on-call-now')).toHaveTextContent('En ce moment : Paul Martin, puis Marie Dupont (notification seulement)');
  });

  it('removes a person and a slot', async () => {
    const { user, slot } = await addSlotWithPeople();
    await user.click(within(slot).getByRole('button', { name: 'Retirer Marie Dupont' }));
    const people = within(slot).getByRole('list', { name: 'Personnes, dans l’ordre où elles sont prévenues' });
    expect(
      within(people)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Paul Martin')]);
    expect(within(slot).getByRole('option', { name: 'Marie Dupont' })).toBeInTheDocument();
    await user.click(within(slot).getByRole('button', { name: 'Supprimer le créneau' }));
    expect(screen.queryByRole('group', { name: 'Créneau 1' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’astreinte' }));
    expect(await screen.findByText('Astreinte enregistrée.')).toBeInTheDocument();
    expect(puts).toEqual([{ slots: [], ladder: LADDER }]);
  });

  it('says what is missing before sending, and shows the server’s reason as it comes', async () => {
    const user = userEvent.setup();
    renderWithProviders(<OnCallEditor siteId={SITE} />);
    await user.click(await screen.findByRole('button', { name: 'Ajouter un créneau' }));
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’astreinte' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Créneau 1 (Nuits de semaine) : ajoutez au moins une personne.');
    expect(puts).toEqual([]);

    refusal = 'L’appel vient après le SMS. (champ « ladder »)';
    const slot = screen.getByRole('group', { name: 'Créneau 1' });
    await within(slot).findByRole('option', { name: 'Paul Martin' });
    await user.selectOptions(within(slot).getByLabelText('Ajouter une personne'), 'Paul Martin');
    await user.click(within(slot).getByRole('button', { name: 'Ajouter' }));
    await user.clear(screen.getByLabelText('SMS après (min)'));
    await user.type(screen.getByLabelText('SMS après (min)'), '30');
    await user.click(screen.getByRole('button', { name: 'Enregistrer l’astreinte' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('L’appel vient après le SMS. (champ « ladder »)');
    expect(puts).toHaveLength(1);
  });
});

describe('OnCallEditor for a viewer', () => {
  it('reads the rota and who is on call now, with nothing to change', async () => {
    rota = {
      onCall: {
        slots: [{ name: 'Nuits de semaine', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '20:00', to: '07:00', people: [MARIE, PAUL] }],
        ladder: LADDER,
        updatedAt: '2026-11-23T21:00:00.000Z',
      },
      now: {
        slot: 0,
        people: [
          { id: MARIE, name: 'Marie Dupont', phone: '+33612345678' },
          { id: PAUL, name: 'Paul Martin', phone: null },
        ],
        holiday: 'Noël',
      },
    };
    const auth = fakeAuth();
    renderWithProviders(<OnCallEditor siteId={SITE} />, { auth: { ...auth, user: auth.user && { ...auth.user, role: 'viewer' } } });

    expect(await screen.findByTestId('on-call-now')).toHaveTextContent(
      'En ce moment (jour férié : Noël) : Marie Dupont, puis Paul Martin (notification seulement)',
    );
    const slot = screen.getByTestId('on-call-slot');
    expect(slot).toHaveTextContent('Nuits de semaine');
    expect(slot).toHaveTextContent('Lun, Mar, Mer, Jeu, Ven, de 20 h à 7 h le lendemain');
    expect(await within(slot).findByText('Marie Dupont, puis Paul Martin')).toBeInTheDocument();
    expect(
      screen.getByText('Notification aussitôt, SMS après 5 min, appel après 10 min, personne suivante après 15 min.'),
    ).toBeInTheDocument();

    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
