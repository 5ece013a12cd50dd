import type { RuleTemplate } from '@vigie/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAuth, jsonResponse, renderWithProviders } from '@/testing/render';
import { RuleTemplates } from './rule-templates';

const REGION = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const LYON = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';
const GRENOBLE = '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f';
const PARIS = '4d5e6f7a-8b9c-4d0e-9f1a-3b4c5d6e7f8a';
const TEMPLATE = '5e6f7a8b-9c0d-4e1f-8a2b-4c5d6e7f8a9b';
const regions = [{ id: REGION, name: 'Rhône-Alpes' }];
const sites = [
  { id: LYON, name: 'Lyon' },
  { id: GRENOBLE, name: 'Grenoble' },
  { id: PARIS, name: 'Paris' },
];

const cremerie: RuleTemplate = {
  id: TEMPLATE,
  name: 'Crèmerie ≤ +4 °C',
  condition: { type: 'above', key: 'temperature', threshold: 4 },
  delaySeconds: 300,
  hysteresis: 0.5,
  schedule: 'always',
  severity: 'critical',
  preset: 'chilled_very_perishable',
  locked: true,
  siteIds: [],
  regionIds: [REGION],
  sensorNameContains: [],
  appliedSiteIds: [LYON, GRENOBLE],
  createdAt: '2026-11-28T08:00:00.000Z',
  updatedAt: '2026-11-28T08:00:00.000Z',
};

let templates: RuleTemplate[];
let sent: { method: string; url: string; body?: unknown }[];
/** The answer to the next write, when the server refuses it. */
let refusal: { status: number; message: string } | null;

beforeEach(() => {
  templates = [];
  sent = [];
  refusal = null;
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (method === 'GET' && url === '/api/rule-templates') return jsonResponse(200, { templates });
    const body = init?.body ? (JSON.parse(String(init.body)) as Partial<RuleTemplate>) : undefined;
    sent.push({ method, url, ...(body ? { body } : {}) });
    if (refusal) return jsonResponse(refusal.status, { message: refusal.message });
    if (method === 'POST' && url === '/api/rule-templates') {
      const template: RuleTemplate = {
        ...cremerie,
        ...body,
        condition: body?.condition ?? cremerie.condition,
        preset: body?.preset ?? null,
        appliedSiteIds: [LYON, GRENOBLE],
      };
      templates = [template];
      return jsonResponse(201, { template });
    }
    if (method === 'PUT' && url === `/api/rule-templates/${TEMPLATE}`) {
      templates = templates.map((template) => ({ ...template, ...body }));
      return jsonResponse(200, { template: templates[0] });
    }
    if (method === 'DELETE' && url === `/api/rule-templates/${TEMPLATE}`) {
      templates = [];
      return new Response(null, { status: 204 });
    }
    return jsonResponse(404, { message: 'Introuvable' });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RuleTemplates for an admin who sees the whole organization', () => {
  it('creates a locked template for a region, sends exactly that, lists it applied to 2 shops and reads the rules again', async () => {
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<RuleTemplates sites={sites} regions={regions} />);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await screen.findByText(/^Aucun modèle de règle/);

    await user.click(screen.getByRole('button', { name: 'Nouveau modèle' }));
    const form = screen.getByRole('form', { name: 'Nouveau modèle' });
    expect(within(form).getByLabelText('Règle')).toHaveDisplayValue('Froid positif – denrées très périssables\u00a0: ≤ +4 °C');
    expect(within(form).getByLabelText('Verrouiller')).toBeChecked();
    expect(within(form).getByLabelText('Tous les magasins')).toBeChecked();
    expect(within(form).queryByLabelText('Rhône-Alpes')).toBeNull();

    await user.type(within(form).getByLabelText('Nom du modèle'), 'Crèmerie ≤ +4 °C');
    await user.click(within(form).getByLabelText('Des régions ou des magasins choisis'));
    await user.click(within(form).getByRole('button', { name: 'Créer le modèle' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Cochez au moins une région ou un magasin');
    expect(sent).toEqual([]);

    await user.click(within(form).getByLabelText('Rhône-Alpes'));
    await user.type(within(form).getByLabelText('Capteurs dont le nom contient'), 'crèmerie ; x');
    await user.click(within(form).getByRole('button', { name: 'Créer le modèle' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('au moins 2 caractères');
    expect(sent).toEqual([]);
    await user.clear(within(form).getByLabelText('Capteurs dont le nom contient'));
    await user.type(within(form).getByLabelText('Capteurs dont le nom contient'), 'crèmerie,  yaourts ,');
    await user.click(within(form).getByRole('button', { name: 'Créer le modèle' }));

    const row = await screen.findByTestId('rule-template');
    expect(sent).toEqual([
      {
        method: 'POST',
        url: '/api/rule-templates',
        body: {
          name: 'Crèmerie ≤ +4 °C',
          preset: 'chilled_very_perishable',
          delaySeconds: 300,
          hysteresis: 0.5,
          schedule: 'always',
          severity: 'critical',
          locked: true,
          siteIds: [],
          regionIds: [REGION],
          sensorNameContains: ['crèmerie', 'yaourts'],
        },
      },
    ]);
    expect(screen.queryByRole('form', { name: 'Nouveau modèle' })).toBeNull();
    expect(row).toHaveTextContent('Crèmerie ≤ +4 °C');
    expect(row).toHaveTextContent('Critique');
    expect(row).toHaveTextContent('Verrouillé');
    expect(within(row).getByText(/^Température/).textContent).toBe('Température ≤ +4,0\u202F°C · alerte après 5\u202Fmin · En permanence');
    expect(within(row).getByText(/^Région/).textContent).toBe('Région\u202F: Rhône-Alpes · appliqué à 2 magasins');
    expect(within(row).getByText(/^Capteurs/).textContent).toBe(
      'Capteurs dont le nom contient «\u202Fcrèmerie\u202F» ou «\u202Fyaourts\u202F»',
    );
    // Templates lay rules in the sites: every list of rules is read again.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['alerts', fakeAuth().user?.id, 'rules'] });
  });

  it('creates an unlocked template of its own condition for chosen shops', async () => {
    const user = userEvent.setup();
    renderWithProviders(<RuleTemplates sites={sites} regions={regions} />);
    await user.click(await screen.findByRole('button', { name: 'Nouveau modèle' }));
    const form = screen.getByRole('form', { name: 'Nouveau modèle' });
    await user.type(within(form).getByLabelText('Nom du modèle'), 'Chambre froide ≥ 0 °C');
    await user.selectOptions(within(form).getByLabelText('Règle'), 'Condition personnalisée');
    expect(within(form).queryByRole('option', { name: 'Hors ligne' })).toBeNull();
    await user.selectOptions(within(form).getByLabelText('Condition'), 'En dessous d’un seuil');
    await user.type(within(form).getByLabelText('Seuil'), '0');
    await user.selectOptions(within(form).getByLabelText('Gravité'), 'Avertissement');
    await user.click(within(form).getByLabelText('Verrouiller'));
    await user.click(within(form).getByLabelText('Des régions ou des magasins choisis'));
    await user.click(within(form).getByLabelText('Paris'));
    await user.click(within(form).getByLabelText('Lyon'));
    await user.click(within(form).getByRole('button', { name: 'Créer le modèle' }));

    const row = await screen.findByTestId('rule-template');
    expect(sent[0]?.body).toEqual({
      name: 'Chambre froide ≥ 0 °C',
      condition: { type: 'below', key: 'temperature', threshold: 0 },
      delaySeconds: 300,
      hysteresis: 0.5,
      schedule: 'always',
      severity: 'warning',
      locked: false,
      siteIds: [LYON, PARIS],
      regionIds: [],
      sensorNameContains: [],
    });
    expect(within(row).getByText(/^Tous les capteurs/).textContent).toBe('Tous les capteurs de la mesure');
    expect(row).toHaveTextContent('Modifiable par les magasins');
    expect(within(row).getByText(/^Magasins/).textContent).toBe('Magasins\u202F: Lyon, Paris · appliqué à 2 magasins');
  });

  it('changes a template from its prefilled form, the preset’s condition left out when unchanged', async () => {
    templates = [cremerie];
    const user = userEvent.setup();
    renderWithProviders(<RuleTemplates sites={sites} regions={regions} />);
    await user.click(await screen.findByRole('button', { name: 'Modifier le modèle Crèmerie ≤ +4 °C' }));
    const form = screen.getByRole('form', { name: 'Modifier le modèle Crèmerie ≤ +4 °C' });
    expect(within(form).getByLabelText('Nom du modèle')).toHaveValue('Crèmerie ≤ +4 °C');
    expect(within(form).getByLabelText('Des régions ou des magasins choisis')).toBeChecked();
    expect(within(form).getByLabelText('Rhône-Alpes')).toBeChecked();
    await user.click(within(form).getByLabelText('Tous les magasins'));
    await user.click(within(form).getByRole('button', { name: 'Enregistrer le modèle' }));
    await vi.waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(sent).toEqual([
      {
        method: 'PUT',
        url: `/api/rule-templates/${TEMPLATE}`,
        body: {
          name: 'Crèmerie ≤ +4 °C',
          delaySeconds: 300,
          hysteresis: 0.5,
          schedule: 'always',
          severity: 'critical',
          locked: true,
          siteIds: [],
          regionIds: [],
          sensorNameContains: [],
        },
      },
    ]);
    expect(await screen.findByText(/^Tous les magasins/)).toBeInTheDocument();
  });

  it('asks before removing a template, saying how many shops lose its rule, and shows a refusal as it comes', async () => {
    templates = [cremerie];
    refusal = { status: 403, message: 'Seul un membre qui voit toute l’organisation peut gérer les modèles de règles.' };
    const user = userEvent.setup();
    renderWithProviders(<RuleTemplates sites={sites} regions={regions} />);
    await user.click(await screen.findByRole('button', { name: 'Supprimer le modèle Crèmerie ≤ +4 °C' }));
    let dialog = screen.getByRole('dialog', { name: 'Supprimer le modèle «\u202FCrèmerie ≤ +4 °C\u202F»\u202F?' });
    expect(dialog).toHaveTextContent('Ses règles seront retirées de 2 magasins');
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Supprimer le modèle Crèmerie ≤ +4 °C' }));
    dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal.message);

    refusal = null;
    await user.click(screen.getByRole('button', { name: 'Supprimer le modèle Crèmerie ≤ +4 °C' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Supprimer' }));
    expect(await screen.findByText('Modèle «\u202FCrèmerie ≤ +4 °C\u202F» supprimé.', { normalizer: (text) => text })).toBeInTheDocument();
    expect(sent.map(({ method, url }) => `${method} ${url}`)).toEqual([
      `DELETE /api/rule-templates/${TEMPLATE}`,
      `DELETE /api/rule-templates/${TEMPLATE}`,
    ]);
    expect(await screen.findByText(/^Aucun modèle de règle/)).toBeInTheDocument();
  });
});

describe('RuleTemplates for the others', () => {
  it.each([
    ['a manager', { role: 'manager' as const, scope: null }],
    ['an admin who sees one region', { role: 'admin' as const, scope: { siteIds: [], regionIds: [REGION] } }],
  ])('shows %s the templates without any form or button', async (_who, changes) => {
    templates = [cremerie];
    const auth = fakeAuth();
    renderWithProviders(<RuleTemplates sites={sites} regions={regions} />, {
      auth: { ...auth, user: auth.user && { ...auth.user, ...changes } },
    });
    const row = await screen.findByTestId('rule-template');
    expect(row).toHaveTextContent('appliqué à 2 magasins');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});
