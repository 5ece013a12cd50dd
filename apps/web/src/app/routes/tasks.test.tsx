import type { CompleteTaskRequest, Task } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetPendingAnswersForTests } from '@/features/tasks/offline-answers';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import TasksRoute from './tasks';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
// 8 h 10 in Paris: the opening round, due at 8 h, is open until 9 h.
const NOW = Date.parse('2026-11-23T07:10:00.000Z');
const SITE = '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const ALERT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const FRIDGE = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const CLEAN = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';

const task = (id: string, name: string, dueAt: string, status: Task['status'] = 'pending'): Task => ({
  id,
  templateId: '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f',
  siteId: SITE,
  name,
  kind: 'checklist',
  severity: 'warning',
  dueAt,
  windowEndsAt: new Date(Date.parse(dueAt) + 3600_000).toISOString(),
  graceEndsAt: new Date(Date.parse(dueAt) + 5400_000).toISOString(),
  status,
  result: status === 'pending' ? null : 'ok',
  completedAt: null,
  completedBy: null,
  completedByName: status === 'pending' ? null : 'Camille Martin',
  comment: null,
  items: [
    { id: FRIDGE, label: 'Température de la chambre froide', type: 'number', required: true, unit: '°C', min: 0, max: 4 },
    { id: CLEAN, label: 'Sols propres', type: 'boolean', required: true, expected: true },
  ],
  alertId: null,
});

let posts: CompleteTaskRequest[];

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  posts = [];
  const tasks = [
    task('4d5e6f7a-8b9c-4d0e-9f1a-3b4c5d6e7f8a', 'Ronde d’ouverture', '2026-11-23T07:00:00.000Z'),
    task('5e6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8a9b', 'Ronde de fermeture', '2026-11-23T18:00:00.000Z'),
    task('6f7a8b9c-0d1e-4f2a-9b3c-5d6e7f8a9b0c', 'Contrôle nuisibles', '2026-11-23T05:00:00.000Z', 'done'),
  ];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/sites')
      return jsonResponse(200, {
        sites: [{ id: SITE, name: 'Lyon Part-Dieu', timezone: 'Europe/Paris', openingHours: hours, regionId: null }],
      });
    if (url.startsWith('/api/tasks?')) return jsonResponse(200, { tasks });
    if (url.startsWith('/api/processes')) return jsonResponse(200, { processes: [] });
    if (url.endsWith('/complete') && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as CompleteTaskRequest;
      posts.push(body);
      const done = { ...(tasks[0] as Task), status: 'done' as const, result: 'nonconforming' as const, alertId: ALERT };
      return jsonResponse(200, { task: done });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  resetPendingAnswersForTests();
});

describe('« Tâches du jour »', () => {
  it('groups the day’s tasks, checks a number against its limits as it is typed, and leads a non-conforming answer to its alert', async () => {
    const user = userEvent.setup();
    const auth = fakeAuth();
    renderWithProviders(<TasksRoute />, { auth: { ...auth, user: auth.user && { ...auth.user, role: 'manager' } } });
    expect(screen.getByRole('heading', { level: 1, name: 'Tâches du jour' })).toBeInTheDocument();
    const now = await screen.findByRole('region', { name: 'À faire maintenant' });
    expect(within(now).getByRole('heading', { level: 3, name: 'Ronde d’ouverture' })).toBeInTheDocument();
    expect(plain(within(now).getByText(/de 8 h à 9 h/).textContent)).toContain('de 8 h à 9 h');
    expect(within(screen.getByRole('region', { name: 'Plus tard aujourd’hui' })).getByText('Ronde de fermeture')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Faites' })).getByText(/Faite par Camille Martin/)).toBeInTheDocument();

    await user.click(within(now).getByRole('button', { name: 'Remplir' }));
    // Nothing answered: the form says what is missing and sends nothing.
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(plain(screen.getByRole('alert').textContent)).toBe('Répondez à « Température de la chambre froide ».');
    expect(posts).toEqual([]);

    const field = screen.getByLabelText(/Température de la chambre froide/);
    expect(field).toHaveAttribute('inputmode', 'decimal');
    await user.type(field, '6,5');
    expect(plain(screen.getByText(/Non conforme/).textContent)).toContain('attendu de 0 à 4 °C');
    await user.click(screen.getByRole('radio', { name: 'Oui' }));
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Enregistrée, non conforme.')).toBeInTheDocument();
    expect(posts).toEqual([
      {
        answers: [
          { itemId: FRIDGE, value: 6.5 },
          { itemId: CLEAN, value: true },
        ],
        // The moment the answers were given, which a phone without network sends later.
        completedAt: new Date(NOW).toISOString(),
      },
    ]);
    expect(screen.getByRole('link', { name: 'Noter l’action corrective' })).toHaveAttribute('href', `/dashboard/alertes/${ALERT}`);
  });

  it('offers no form to a viewer, who reads the day only', async () => {
    const auth = fakeAuth();
    renderWithProviders(<TasksRoute />, { auth: { ...auth, user: auth.user && { ...auth.user, role: 'viewer' } } });
    await screen.findByRole('region', { name: 'À faire maintenant' });
    expect(screen.queryByRole('button', { name: 'Remplir' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Refroidissements et maintiens au chaud' })).not.toBeInTheDocument();
  });
});

describe('« Tâches du jour » without network', () => {
  it('keeps the answers on the phone with the time they were given, and sends them once the network is back', async () => {
    const user = userEvent.setup();
    const auth = fakeAuth();
    const online = globalThis.fetch;
    renderWithProviders(<TasksRoute />, { auth: { ...auth, user: auth.user && { ...auth.user, role: 'manager' } } });
    const now = await screen.findByRole('region', { name: 'À faire maintenant' });
    await user.click(within(now).getByRole('button', { name: 'Remplir' }));
    await user.type(screen.getByLabelText(/Température de la chambre froide/), '3');
    await user.click(screen.getByRole('radio', { name: 'Oui' }));
    // The cold room: every request fails before reaching the server.
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    // The card says its answers wait for the network, with the time they were given; no form is offered again.
    const card = (await screen.findByText(/En attente de réseau/)).closest('li') as HTMLElement;
    expect(plain(within(card).getByText(/En attente de réseau/).textContent)).toBe('En attente de réseau (réponses données à 8 h 10)');
    expect(within(card).queryByRole('button', { name: 'Remplir' })).not.toBeInTheDocument();
    expect(plain((await screen.findByText(/attend d’être envoyée/)).textContent)).toContain(
      '1 tâche remplie sans réseau attend d’être envoyée.',
    );
    expect(posts).toEqual([]);
    // Ten minutes later the network is back: the answers leave with the moment they were given.
    vi.setSystemTime(NOW + 600_000);
    vi.stubGlobal('fetch', online);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      answers: [
        { itemId: FRIDGE, value: 3 },
        { itemId: CLEAN, value: true },
      ],
      completedAt: new Date(NOW).toISOString(),
    });
    await vi.waitFor(() => expect(screen.queryByText(/attend d’être envoyée/)).not.toBeInTheDocument());
  });
});
