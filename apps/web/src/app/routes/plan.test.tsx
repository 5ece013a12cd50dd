import type { CreateTaskTemplateRequest, TaskTemplate } from '@vigie/contract';
import { TASK_LIBRARY } from '@vigie/contract/values';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import PlanRoute from './plan';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u202F\u00A0]/g, ' ');
const SITE = '7c1f6a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const OTHER_SITE = '8d2a7b3f-4c5e-4f6a-9b0c-1d2e3f4a5b6c';
const REGION = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const hours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const OPENING = '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f';
const PESTS = '4d5e6f7a-8b9c-4d0e-9f1a-3b4c5d6e7f8a';
const FRIDGE = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const at = '2026-11-01T08:00:00.000Z';

const template = (overrides: Partial<TaskTemplate>): TaskTemplate => ({
  id: OPENING,
  name: 'Ouverture du magasin',
  kind: 'checklist',
  siteIds: [],
  regionIds: [],
  items: [{ id: FRIDGE, label: 'Température de la chambre froide', type: 'number', required: true, unit: '°C', min: 0, max: 4 }],
  schedule: { frequency: 'daily', times: ['08:00', '14:00'], windowMinutes: 60, graceMinutes: 30 },
  severity: 'warning',
  locked: false,
  createdAt: at,
  updatedAt: at,
  ...overrides,
});

type Sent = { method: string; url: string; body?: CreateTaskTemplateRequest };
let sent: Sent[];
/** The answer to the next write: a template (201 or 200), or a refusal. */
let refusal: { status: number; message: string } | null;
let templates: TaskTemplate[];

beforeEach(() => {
  sent = [];
  refusal = null;
  templates = [
    template({}),
    template({
      id: PESTS,
      name: 'Contrôle nuisibles',
      kind: 'pest_control',
      siteIds: [SITE],
      schedule: { frequency: 'weekly', times: ['09:00'], weekdays: [1, 4], windowMinutes: 480, graceMinutes: 240 },
      severity: 'critical',
      locked: true,
    }),
  ];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/sites')
      return jsonResponse(200, {
        sites: [
          { id: SITE, name: 'Lyon Part-Dieu', timezone: 'Europe/Paris', openingHours: hours, regionId: REGION },
          { id: OTHER_SITE, name: 'Lille Europe', timezone: 'Europe/Paris', openingHours: hours, regionId: null },
        ],
      });
    if (url === '/api/regions') return jsonResponse(200, { regions: [{ id: REGION, name: 'Rhône-Alpes' }] });
    if (url === '/api/task-templates' && method === 'GET') return jsonResponse(200, { templates });
    if (url.startsWith('/api/task-templates') && method !== 'GET') {
      const body = init?.body ? (JSON.parse(String(init.body)) as CreateTaskTemplateRequest) : undefined;
      sent.push({ method, url, ...(body ? { body } : {}) });
      if (refusal) return jsonResponse(refusal.status, { message: refusal.message });
      if (method === 'DELETE') return new Response(null, { status: 204 });
      const saved = template({
        ...body,
        id: method === 'POST' ? '5e6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8a9b' : OPENING,
      } as Partial<TaskTemplate>);
      return jsonResponse(method === 'POST' ? 201 : 200, { template: saved });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAs(role: 'admin' | 'manager' | 'viewer', scope: { siteIds: string[]; regionIds: string[] } | null = null) {
  const auth = fakeAuth();
  return renderWithProviders(<PlanRoute />, { auth: { ...auth, user: auth.user && { ...auth.user, role, scope } } });
}

const rowOf = (name: string) => {
  const row = screen.getByRole('heading', { level: 3, name }).closest('li');
  if (!row) throw new Error(`no row ${name}`);
  return row;
};

describe('« Plan de maîtrise sanitaire »', () => {
  it('lists the templates with when they fall due, where, and whether they are locked', async () => {
    renderAs('admin');
    expect(screen.getByRole('heading', { level: 1, name: 'Plan de maîtrise sanitaire' })).toBeInTheDocument();
    await screen.findByRole('heading', { level: 3, name: 'Ouverture du magasin' });

    const opening = rowOf('Ouverture du magasin');
    expect(plain(within(opening).getByTestId('template-schedule').textContent)).toBe('Tous les jours à 8 h 00 et 14 h 00');
    expect(within(opening).getByText('Tous les sites')).toBeInTheDocument();
    expect(within(opening).getByText('Liste de contrôle')).toBeInTheDocument();
    expect(within(opening).queryByText('Verrouillé')).not.toBeInTheDocument();

    const pests = rowOf('Contrôle nuisibles');
    expect(plain(within(pests).getByTestId('template-schedule').textContent)).toBe('Le lundi et le jeudi à 9 h 00');
    expect(plain(within(pests).getByText(/^Site :/).textContent)).toBe('Site : Lyon Part-Dieu');
    expect(within(pests).getByText('Verrouillé')).toBeInTheDocument();
    expect(within(pests).getByText('Lutte contre les nuisibles')).toBeInTheDocument();
    // The admin of the whole organization changes a locked template too.
    expect(within(pests).getByRole('button', { name: /Modifier le modèle/ })).toBeInTheDocument();
  });

  it('starts from « Huile de friture » of the library, and saves it with its items (POST)', async () => {
    const user = userEvent.setup();
    renderAs('admin');
    await screen.findByRole('heading', { level: 3, name: 'Ouverture du magasin' });
    const toggle = screen.getByRole('button', { name: 'Partir d’un modèle' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const library = screen.getByRole('region', { name: 'Bibliothèque de départ' });
    expect(within(library).getAllByTestId('library-entry')).toHaveLength(TASK_LIBRARY.length);
    await user.click(within(library).getByRole('button', { name: /Partir du modèle «\u202FHuile de friture\u202F»/ }));

    const editor = screen.getByRole('form', { name: /Nouveau modèle d’après «\u202FHuile de friture\u202F»/ });
    // The focus starts on the editor's title.
    expect(screen.getByRole('heading', { level: 2, name: /Nouveau modèle d’après/ })).toHaveFocus();
    expect(within(editor).getByLabelText('Nom du modèle')).toHaveValue('Huile de friture');
    expect(within(editor).getByLabelText('Type de tâche')).toHaveValue('oil');
    expect(within(editor).getAllByTestId('template-item')).toHaveLength(3);
    expect(within(editor).getAllByLabelText('Libellé')[0]).toHaveValue('Composés polaires');
    expect(within(editor).getAllByLabelText('Maximum')[0]).toHaveValue('25');

    await user.click(within(editor).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(/Modèle « Huile de friture » enregistré\./)).toBeInTheDocument();
    const oil = TASK_LIBRARY.find((entry) => entry.id === 'huile-friture')?.request;
    expect(sent).toEqual([{ method: 'POST', url: '/api/task-templates', body: { ...oil, siteIds: [], regionIds: [] } }]);
    expect(sent[0]?.body?.items.map((item) => item.label)).toEqual([
      'Composés polaires',
      'Température du bain (180 °C au plus)',
      'Huile changée\u202F?',
    ]);
    // Closed: the focus is back on the button that opened the library.
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Partir d’un modèle' })).toHaveFocus();
  });

  it('shows the server’s reason in the form and keeps everything typed', async () => {
    const user = userEvent.setup();
    refusal = { status: 400, message: 'Le modèle nomme un site qui n’est pas celui de l’organisation.' };
    renderAs('admin');
    await screen.findByRole('heading', { level: 3, name: 'Ouverture du magasin' });
    await user.click(screen.getByRole('button', { name: 'Nouveau modèle' }));
    const editor = screen.getByRole('form', { name: 'Nouveau modèle' });

    // Nothing named: the form says so, and sends nothing.
    await user.click(within(editor).getByRole('button', { name: 'Enregistrer' }));
    expect(within(editor).getByRole('alert')).toHaveTextContent('Donnez un nom au modèle.');
    expect(within(editor).getByLabelText('Nom du modèle')).toHaveFocus();
    expect(sent).toEqual([]);

    await user.type(within(editor).getByLabelText('Nom du modèle'), 'Ronde du soir');
    await user.type(within(editor).getByLabelText('Libellé'), 'Rideau baissé');
    await user.click(within(editor).getByRole('button', { name: 'Ajouter une heure' }));
    const second = within(editor).getByLabelText('Heure 2');
    expect(second).toHaveFocus();
    await user.type(second, '21:15');
    await user.click(within(editor).getByRole('radio', { name: 'Des régions ou des sites choisis' }));
    await user.click(within(editor).getByRole('checkbox', { name: 'Lille Europe' }));
    await user.click(within(editor).getByRole('button', { name: 'Enregistrer' }));

    expect(plain((await within(editor).findByRole('alert')).textContent)).toBe(
      'Le modèle nomme un site qui n’est pas celui de l’organisation.',
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({
      name: 'Ronde du soir',
      siteIds: [OTHER_SITE],
      regionIds: [],
      items: [{ label: 'Rideau baissé', type: 'boolean', required: true, expected: true }],
      schedule: { frequency: 'daily', times: ['08:00', '21:15'], windowMinutes: 60, graceMinutes: 30 },
    });
    expect(within(editor).getByLabelText('Nom du modèle')).toHaveValue('Ronde du soir');
    expect(within(editor).getByLabelText('Libellé')).toHaveValue('Rideau baissé');
    expect(within(editor).getByLabelText('Heure 2')).toHaveValue('21:15');
    expect(within(editor).getByRole('checkbox', { name: 'Lille Europe' })).toBeChecked();

    // Sent again once the server agrees: the same values.
    refusal = null;
    await user.click(within(editor).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(/Modèle « Ronde du soir » enregistré\./)).toBeInTheDocument();
    expect(sent[1]?.body).toEqual(sent[0]?.body);
  });

  it('edits a template (PUT, its items’ ids kept), moves an item, and deletes one after asking', async () => {
    const user = userEvent.setup();
    renderAs('admin');
    await screen.findByRole('heading', { level: 3, name: 'Ouverture du magasin' });
    await user.click(within(rowOf('Ouverture du magasin')).getByRole('button', { name: /Modifier le modèle/ }));
    const editor = screen.getByRole('form', { name: /Modifier le modèle «\u202FOuverture du magasin\u202F»/ });
    await user.click(within(editor).getByRole('button', { name: 'Ajouter un point' }));
    const label = within(editor).getAllByLabelText('Libellé')[1];
    expect(label).toHaveFocus();
    await user.type(label as HTMLElement, 'Sols propres');
    await user.click(within(editor).getByRole('button', { name: /^Monter le point 2/ }));
    // Moved to the top: the focus goes to the button still usable.
    expect(within(editor).getByRole('button', { name: /^Descendre le point 1 «\u202FSols propres\u202F»/ })).toHaveFocus();
    await user.click(within(editor).getByRole('button', { name: 'Enregistrer' }));
    await screen.findByText(/Modèle « Ouverture du magasin » enregistré\./);
    expect(sent[0]).toMatchObject({ method: 'PUT', url: `/api/task-templates/${OPENING}` });
    expect(sent[0]?.body?.items).toEqual([
      { label: 'Sols propres', type: 'boolean', required: true, expected: true },
      { id: FRIDGE, label: 'Température de la chambre froide', type: 'number', required: true, unit: '°C', min: 0, max: 4 },
    ]);

    await user.click(within(rowOf('Ouverture du magasin')).getByRole('button', { name: /Modifier le modèle/ }));
    const again = screen.getByRole('form', { name: /Modifier le modèle/ });
    await user.click(within(again).getByRole('button', { name: 'Supprimer' }));
    const dialog = screen.getByRole('dialog', { name: /Supprimer le modèle «\u202FOuverture du magasin\u202F»/ });
    await user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    await screen.findByText(/Modèle « Ouverture du magasin » supprimé\./);
    expect(sent[1]).toEqual({ method: 'DELETE', url: `/api/task-templates/${OPENING}` });
  });

  it('offers a manager no lock, and no change to a locked template', async () => {
    const user = userEvent.setup();
    renderAs('manager');
    await screen.findByRole('heading', { level: 3, name: 'Contrôle nuisibles' });
    const pests = rowOf('Contrôle nuisibles');
    expect(within(pests).getByText('Verrouillé')).toBeInTheDocument();
    expect(within(pests).queryByRole('button', { name: /Modifier/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nouveau modèle' }));
    const editor = screen.getByRole('form', { name: 'Nouveau modèle' });
    expect(within(editor).getByLabelText('Nom du modèle')).toBeInTheDocument();
    expect(within(editor).queryByRole('checkbox', { name: 'Verrouiller' })).not.toBeInTheDocument();
  });

  it('offers the lock to an admin who sees the whole organization only', async () => {
    const user = userEvent.setup();
    const { unmount } = renderAs('admin');
    await user.click(await screen.findByRole('button', { name: 'Nouveau modèle' }));
    expect(screen.getByRole('checkbox', { name: 'Verrouiller' })).not.toBeChecked();
    unmount();

    // An admin of some shops: their shops only, no region, no lock.
    renderAs('admin', { siteIds: [SITE], regionIds: [] });
    await user.click(await screen.findByRole('button', { name: 'Nouveau modèle' }));
    const editor = screen.getByRole('form', { name: 'Nouveau modèle' });
    expect(within(editor).queryByRole('checkbox', { name: 'Verrouiller' })).not.toBeInTheDocument();
    expect(within(editor).queryByRole('radio', { name: 'Tous les sites' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(editor).getByRole('checkbox', { name: 'Lyon Part-Dieu' })).toBeInTheDocument());
  });

  it('tells a viewer the plan is not theirs to prepare, and reads nothing', () => {
    renderAs('viewer');
    expect(screen.getByText(/préparé par les administrateurs et les responsables/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouveau modèle' })).not.toBeInTheDocument();
  });
});
