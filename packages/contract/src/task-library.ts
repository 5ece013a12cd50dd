import type { CreateTaskTemplateRequest, TaskSchedule } from './tasks.ts';

/**
 * The starter library of the food-safety plan (docs/guide-utilisateur.md, Plan de maîtrise
 * sanitaire : le préparer): the templates a French food shop knows — opening and closing rounds,
 * cleaning plans by zone, pest control, frying oil, thermometers, cooling and hot holding — each a
 * complete create request (`createTaskTemplateRequestSchema`), to start from and adapt before it is
 * saved. The limits are those of the arrêté du 21 décembre 2009 (chilled food ≤ +4 °C, frozen food
 * ≤ −18 °C), of the décret 2008-184 (frying oil: 25 % polar compounds at most) and of the cooling and
 * hot holding rules (+63 °C or above, +10 °C within 2 h). Free of zod: only types are imported.
 *
 * French typography: ’ for the apostrophe, a narrow no-break space (U+202F) before « ? », « : » and
 * « % », a plain space before « °C » as the rule presets write it.
 */

const NNBSP = '\u202F';

export interface TaskLibraryEntry {
  /** A stable slug: « ouverture », « huile-friture ». */
  id: string;
  /** One line of French saying what it is for. */
  description: string;
  /** The template to create, every field spelt out; it covers every site until sites are chosen. */
  request: CreateTaskTemplateRequest;
}

type Item = CreateTaskTemplateRequest['items'][number];

/** A yes/no question whose other answer is non-conforming. */
const yesNo = (question: string, expected = true): Item => ({
  label: `${question}${NNBSP}?`,
  type: 'boolean',
  required: true,
  expected,
});

/** A temperature in °C; out of [min, max] it is non-conforming. */
const temperature = (label: string, limits: { min?: number; max?: number }, required = true): Item => ({
  label,
  type: 'number',
  required,
  unit: '°C',
  ...limits,
});

const choice = (label: string, options: string[], failing: string[] = [], required = true): Item => ({
  label,
  type: 'choice',
  required,
  options,
  ...(failing.length > 0 ? { failing } : {}),
});

const remarks = (label = 'Observations'): Item => ({ label, type: 'text', required: false });

const daily = (times: string[], windowMinutes: number, graceMinutes: number): TaskSchedule => ({
  frequency: 'daily',
  times,
  windowMinutes,
  graceMinutes,
});

export const TASK_LIBRARY: readonly TaskLibraryEntry[] = [
  {
    id: 'ouverture',
    description: `La ronde d’ouverture${NNBSP}: températures des chambres froides et des meubles, hygiène du magasin avant l’arrivée des clients.`,
    request: {
      name: 'Ouverture',
      kind: 'checklist',
      items: [
        temperature('Chambre froide positive (0 à +4 °C)', { min: 0, max: 4 }),
        temperature('Vitrine réfrigérée boucherie-charcuterie (0 à +4 °C)', { min: 0, max: 4 }),
        temperature('Meuble libre-service produits laitiers (0 à +8 °C)', { min: 0, max: 8 }),
        temperature('Chambre froide négative (−18 °C ou moins)', { max: -18 }),
        temperature('Meuble surgelés libre-service (−18 °C ou moins)', { max: -18 }),
        yesNo('Surfaces et plans de travail propres'),
        yesNo('Lave-mains approvisionné (savon, essuie-mains à usage unique)'),
        yesNo('Tenues du personnel propres et complètes'),
        yesNo('Produits à date limite dépassée retirés de la vente'),
        remarks(),
      ],
      schedule: daily(['07:30'], 60, 30),
      severity: 'critical',
      locked: false,
    },
  },
  {
    id: 'fermeture',
    description: `La ronde de fermeture${NNBSP}: le froid, les produits protégés et les locaux laissés propres pour la nuit.`,
    request: {
      name: 'Fermeture',
      kind: 'checklist',
      items: [
        temperature('Chambre froide positive (0 à +4 °C)', { min: 0, max: 4 }),
        temperature('Chambre froide négative (−18 °C ou moins)', { max: -18 }),
        yesNo('Vitrines vidées ou produits filmés'),
        yesNo('Produits entamés filmés et étiquetés avec leur date d’ouverture'),
        yesNo('Plans de travail et trancheuse nettoyés'),
        yesNo('Poubelles vidées et conteneurs fermés'),
        yesNo('Portes des chambres froides bien fermées'),
        remarks(),
      ],
      schedule: daily(['19:30'], 60, 30),
      severity: 'warning',
      locked: false,
    },
  },
  {
    id: 'nettoyage-preparation',
    description: 'Le nettoyage et la désinfection de la zone de préparation, après le service du midi et le soir.',
    request: {
      name: 'Plan de nettoyage — zone de préparation',
      kind: 'cleaning',
      items: [
        yesNo('Plans de travail nettoyés et désinfectés'),
        yesNo('Trancheuse démontée, nettoyée et désinfectée'),
        yesNo('Planches à découper et ustensiles lavés'),
        yesNo('Sols nettoyés'),
        yesNo('Lave-mains nettoyé et approvisionné'),
        choice('Produit utilisé', ['Détergent-désinfectant', 'Détergent puis désinfectant', 'Nettoyeur vapeur'], [], false),
      ],
      schedule: daily(['14:00', '20:00'], 90, 60),
      severity: 'warning',
      locked: false,
    },
  },
  {
    id: 'nettoyage-chambres-froides',
    description: 'Le nettoyage complet des chambres froides, chaque semaine, une photo à l’appui si on le souhaite.',
    request: {
      name: 'Plan de nettoyage — chambres froides',
      kind: 'cleaning',
      items: [
        yesNo('Parois, portes et joints nettoyés'),
        yesNo('Étagères et caillebotis nettoyés et désinfectés'),
        yesNo('Sol nettoyé et désinfecté'),
        yesNo('Évaporateur sans givre ni glace'),
        yesNo('Produits remis en place, rien posé au sol'),
        { label: 'Photo de la chambre froide après nettoyage', type: 'photo', required: false },
      ],
      schedule: { frequency: 'weekly', times: ['15:00'], weekdays: [1], windowMinutes: 240, graceMinutes: 120 },
      severity: 'warning',
      locked: false,
    },
  },
  {
    id: 'nettoyage-vitrines',
    description: 'Le nettoyage des vitrines et meubles réfrigérés, chaque semaine avant l’ouverture.',
    request: {
      name: 'Plan de nettoyage — vitrines et meubles réfrigérés',
      kind: 'cleaning',
      items: [
        yesNo('Produits gardés en chambre froide pendant le nettoyage'),
        yesNo('Vitres, parois et étagères nettoyées'),
        yesNo('Grilles et bacs d’égouttage nettoyés et désinfectés'),
        yesNo('Meuble revenu à +4 °C ou moins avant la remise en rayon'),
      ],
      schedule: { frequency: 'weekly', times: ['06:30'], weekdays: [3], windowMinutes: 120, graceMinutes: 60 },
      severity: 'warning',
      locked: false,
    },
  },
  {
    id: 'controle-nuisibles',
    description: 'Le tour des pièges et des ouvertures chaque semaine, entre deux passages du prestataire.',
    request: {
      name: 'Contrôle nuisibles',
      kind: 'pest_control',
      items: [
        yesNo('Pièges et postes d’appâtage vérifiés'),
        choice(
          'Traces de nuisibles',
          ['Aucune', 'Rongeurs (crottes, rongements)', 'Insectes rampants', 'Insectes volants', 'Oiseaux'],
          ['Rongeurs (crottes, rongements)', 'Insectes rampants', 'Insectes volants', 'Oiseaux'],
        ),
        yesNo('Désinsectiseur électrique en marche'),
        yesNo('Portes, grilles et bas de porte étanches'),
        { label: 'Photo des traces', type: 'photo', required: false },
        remarks('Observations, passage du prestataire'),
      ],
      schedule: { frequency: 'weekly', times: ['09:00'], weekdays: [1], windowMinutes: 480, graceMinutes: 240 },
      severity: 'critical',
      locked: false,
    },
  },
  {
    id: 'huile-friture',
    description: `Le contrôle de l’huile avant la première friture du jour${NNBSP}: composés polaires à 25${NNBSP}% au plus.`,
    request: {
      name: 'Huile de friture',
      kind: 'oil',
      items: [
        { label: 'Composés polaires', type: 'number', required: true, unit: '%', min: 0, max: 25 },
        temperature('Température du bain (180 °C au plus)', { max: 180 }, false),
        choice(`Huile changée${NNBSP}?`, ['Non', 'Appoint seulement', 'Oui, changement complet']),
      ],
      schedule: daily(['10:30'], 120, 60),
      severity: 'warning',
      locked: false,
    },
  },
  {
    id: 'etalonnage-thermometres',
    description: 'La vérification mensuelle des thermomètres à sonde dans l’eau glacée, et dans l’eau bouillante au besoin.',
    request: {
      name: 'Étalonnage des thermomètres',
      kind: 'thermometer',
      items: [
        { label: 'Thermomètre vérifié (numéro ou emplacement)', type: 'text', required: true },
        temperature('Point de glace, eau et glace pilée (0 °C ± 0,5)', { min: -0.5, max: 0.5 }),
        temperature('Eau bouillante (100 °C ± 1)', { min: 99, max: 101 }, false),
        yesNo('Sonde nettoyée et désinfectée après la mesure'),
      ],
      schedule: { frequency: 'monthly', times: ['09:00'], dayOfMonth: 1, windowMinutes: 480, graceMinutes: 480 },
      severity: 'warning',
      locked: false,
    },
  },
  {
    id: 'refroidissement-rapide',
    description: `Le point du soir sur les refroidissements rapides${NNBSP}: chacun suivi dans Vigie, de +63 °C à +10 °C en 2 h au plus.`,
    request: {
      name: 'Refroidissement rapide',
      kind: 'checklist',
      items: [
        choice(
          `Produits refroidis enregistrés dans Vigie${NNBSP}?`,
          ['Oui, tous', 'Aucun refroidissement aujourd’hui', 'Non, pas tous'],
          ['Non, pas tous'],
        ),
        yesNo('Cellule de refroidissement propre et dégivrée'),
        yesNo('Produits refroidis filmés, étiquetés et stockés entre 0 et +3 °C'),
        remarks(),
      ],
      schedule: daily(['19:00'], 120, 60),
      severity: 'warning',
      locked: false,
    },
  },
  {
    id: 'maintien-au-chaud',
    description: `Le point du midi et de l’après-midi sur les produits tenus au chaud${NNBSP}: +63 °C ou plus, suivis dans Vigie.`,
    request: {
      name: 'Maintien au chaud',
      kind: 'checklist',
      items: [
        choice(
          `Maintiens au chaud suivis dans Vigie${NNBSP}?`,
          ['Oui, tous', 'Aucun maintien au chaud aujourd’hui', 'Non, pas tous'],
          ['Non, pas tous'],
        ),
        temperature('Température à cœur d’un produit de la vitrine chaude (+63 °C ou plus)', { min: 63 }, false),
        yesNo('Produits non vendus jetés en fin de journée, jamais remis en vente'),
      ],
      schedule: daily(['12:00', '15:30'], 60, 30),
      severity: 'warning',
      locked: false,
    },
  },
];
