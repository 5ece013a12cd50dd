import type { RuleCondition } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { crossingOf } from '../alerts/alert-service.ts';
import {
  type AlertContext,
  alertEmail,
  alertPush,
  forecastText,
  formatClock,
  formatThreshold,
  type MessageAlert,
} from './alert-message.ts';

const NBSP = '\u00a0';
/** Spaces made visible as plain ones, to read the expectations. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const NNBSP = '\u202f';

// 12:10 UTC is 14 h 10 in Paris (summer time).
const NOW = new Date('2026-07-01T11:30:00Z');
const ETA = new Date('2026-07-01T12:10:00Z');
const PREDICTED: RuleCondition = { type: 'predicted_above', key: 'temperature', threshold: 8, withinMinutes: 120 };

const alert: MessageAlert = {
  id: '00000000-0000-4000-8000-000000000001',
  severity: 'critical',
  key: 'temperature',
  openedAt: new Date('2026-07-01T11:20:00Z'),
  resolvedAt: null,
  // A « dépassement prévu » keeps the forecast's worst value here: never to be shown as the reading.
  peak: 9.3,
  last: 9.3,
};

const context: AlertContext = {
  sensorName: 'Vitrine crèmerie',
  siteName: 'Lyon Part-Dieu',
  timezone: 'Europe/Paris',
  ruleName: 'Prévision vitrine',
  condition: PREDICTED,
  forecast: { threshold: 8, eta: ETA },
  reading: { value: 7.2, at: new Date('2026-07-01T11:28:00Z') },
};

const options = { now: NOW, publicUrl: 'https://vigie.example' };

describe('French forecast wording', () => {
  it('writes a limit signed, with its unit and without needless decimals', () => {
    expect(formatThreshold('temperature', 8)).toBe(`+8${NBSP}°C`);
    expect(formatThreshold('temperature', -18)).toBe(`−18${NBSP}°C`);
    expect(formatThreshold('temperature', 3.5)).toBe(`+3,5${NBSP}°C`);
    expect(formatThreshold('humidity', 80)).toBe(`+80${NBSP}%`);
  });

  it('writes the time as a shop’s clock reads it, in the site’s zone', () => {
    expect(formatClock(ETA, 'Europe/Paris')).toBe(`14${NNBSP}h${NNBSP}10`);
    expect(formatClock(new Date('2026-07-01T07:00:00Z'), 'Europe/Paris')).toBe(`9${NNBSP}h`);
    expect(formatClock(ETA, 'America/Montreal')).toBe(`8${NNBSP}h${NNBSP}10`);
  });

  it('labels the forecast as one: « prévu : +8 °C vers 14 h 10 », tomorrow named, the horizon when the time is unknown', () => {
    const where = { now: NOW, timeZone: 'Europe/Paris' };
    expect(forecastText('temperature', { threshold: 8, eta: ETA }, where)).toBe(`prévu${NNBSP}: +8${NBSP}°C vers 14${NNBSP}h${NNBSP}10`);
    expect(plain(forecastText('temperature', { threshold: 8, eta: new Date('2026-07-01T22:40:00Z') }, where))).toBe(
      'prévu : +8 °C demain vers 0 h 40',
    );
    expect(plain(forecastText('temperature', { threshold: -18, eta: null }, { ...where, withinMinutes: 90 }))).toBe(
      'prévu : −18 °C dans les 90 min',
    );
  });
});

describe('the e-mail of a « dépassement prévu »', () => {
  it('gives the reading as the value and the forecast labelled as such, never the forecast as the reading', () => {
    const mail = alertEmail(alert, context, 'opened', options);
    expect(plain(mail.subject)).toBe('[Vigie] Alerte critique – Vitrine crèmerie : 7,2 °C mesurés ; prévu : +8 °C vers 14 h 10');
    const text = plain(mail.text);
    expect(text).toContain('un dépassement est prévu, il n’a pas été mesuré.');
    expect(text).toContain('Mesuré : 7,2 °C à 13 h 28');
    expect(text).toContain('Prévu : +8 °C vers 14 h 10 (une prévision, pas une mesure)');
    expect(text).toContain('Prévision au plus haut pendant l’alerte : 9,3 °C');
    expect(text).toContain('Limite : ≤ +8,0 °C dans les 120 min à venir (prévision) — règle « Prévision vitrine »');
    expect(text).not.toContain('Valeur');
    expect(mail.subject).not.toContain('9,3');
  });

  it('says when no reading is known, and the horizon when the time is not', () => {
    const mail = alertEmail(alert, { ...context, forecast: { threshold: 8, eta: null }, reading: null }, 'repeat', options);
    expect(plain(mail.subject)).toBe('[Vigie] Rappel (alerte critique) – Vitrine crèmerie, dépassement prévu : +8 °C dans les 120 min');
    const text = plain(mail.text);
    expect(text).toContain('Mesuré : aucune mesure connue');
    expect(text).toContain('Prévu : +8 °C dans les 120 min (une prévision, pas une mesure)');
  });

  it('ends with the reading and no forecast time once resolved', () => {
    const resolved = { ...alert, resolvedAt: new Date('2026-07-01T11:50:00Z') };
    const mail = alertEmail(resolved, { ...context, forecast: { threshold: 8, eta: null } }, 'resolved', options);
    expect(plain(mail.subject)).toBe('[Vigie] Fin d’alerte – Vitrine crèmerie : plus de dépassement prévu, 7,2 °C mesurés');
    expect(plain(mail.text)).toContain('Prévision : plus de dépassement de +8 °C annoncé');
    expect(plain(mail.text)).toContain('Durée : 30 min');
  });

  it('leaves the e-mail of a measured breach as it was', () => {
    const measured = alertEmail(
      { ...alert, peak: 12.5, last: 11 },
      { ...context, condition: { type: 'above', key: 'temperature', threshold: 4 }, forecast: undefined, reading: undefined },
      'opened',
      options,
    );
    expect(plain(measured.subject)).toBe('[Vigie] Alerte critique – Vitrine crèmerie : 11,0 °C (limite ≤ +4,0 °C)');
    expect(plain(measured.text)).toContain('Valeur : 11,0 °C (pic 12,5 °C)');
  });
});

describe('the wording of an alert e-mail', () => {
  const measured = {
    ...context,
    condition: { type: 'above', key: 'temperature', threshold: 4 } as RuleCondition,
    forecast: undefined,
    reading: undefined,
  };
  const warning = { ...alert, severity: 'warning' as const, peak: 4.7, last: 4.7, openedAt: new Date('2026-07-01T11:29:40Z') };

  it('names a warning as one says it, never « Alerte avertissement », and a critical one « Alerte critique »', () => {
    const opened = alertEmail(warning, measured, 'opened', options);
    expect(plain(opened.subject)).toBe('[Vigie] Avertissement – Vitrine crèmerie : 4,7 °C (limite ≤ +4,0 °C)');
    expect(opened.text.split('\n')[0]).toBe(`Avertissement sur «${NNBSP}Vitrine crèmerie${NNBSP}» (Lyon Part-Dieu).`);
    expect(plain(alertEmail(warning, measured, 'repeat', options).subject)).toMatch(/^\[Vigie\] Rappel \(avertissement\) – /);
    expect(plain(alertEmail(alert, measured, 'escalated', options).subject)).toMatch(/^\[Vigie\] Escalade \(alerte critique\) – /);
    expect(`${opened.subject}\n${opened.text}`).not.toMatch(/Alerte avertissement/);
  });

  it('says « moins d’une minute », never « 0 min », and writes the time « 13 h 29 »', () => {
    const text = alertEmail(warning, measured, 'opened', options).text;
    expect(text).toContain(`Depuis${NNBSP}: moins d’une minute (ouverte le 01/07/2026 à 13${NNBSP}h${NNBSP}29)`);
    expect(text).not.toMatch(/0\u00a0min|\d\d:\d\d/);
  });

  it('puts a narrow no-break space before every « : » and inside « », never a plain one', () => {
    const { subject, text } = alertEmail(warning, measured, 'opened', options);
    for (const line of [subject, ...text.split('\n')]) {
      expect(line).not.toMatch(/ :|« | »/);
    }
    expect(text).toContain(`Limite${NNBSP}: ≤${NBSP}+4,0${NBSP}°C — règle «${NNBSP}Prévision vitrine${NNBSP}»`);
  });
});

describe('when a forecast crosses a « dépassement prévu » limit', () => {
  const stored = {
    computedAt: NOW,
    forecast: [
      { ts: '2026-07-01T11:35:00Z', value: 7.4 },
      { ts: '2026-07-01T12:10:00Z', value: 8.2 },
      { ts: '2026-07-01T12:15:00Z', value: 8.6 },
    ],
  };

  it('is the first step past the limit, in its direction', () => {
    expect(crossingOf({ direction: 'above', threshold: 8 }, stored, NOW)?.toISOString()).toBe('2026-07-01T12:10:00.000Z');
    expect(crossingOf({ direction: 'below', threshold: 7.5 }, stored, NOW)?.toISOString()).toBe('2026-07-01T11:35:00.000Z');
    expect(crossingOf({ direction: 'above', threshold: 9 }, stored, NOW)).toBeNull();
  });

  it('is unknown without a forecast, or from one half an hour old', () => {
    expect(crossingOf({ direction: 'above', threshold: 8 }, undefined, NOW)).toBeNull();
    expect(crossingOf({ direction: 'above', threshold: 8 }, stored, new Date(NOW.getTime() + 31 * 60_000))).toBeNull();
  });
});

describe('the messages of a task of the food-safety plan or a failed process', () => {
  const task: AlertContext = {
    sensorName: 'Ouverture du magasin',
    siteName: 'Lyon Part-Dieu',
    timezone: 'Europe/Paris',
    ruleName: null,
    condition: null,
    plan: { what: 'Tâche manquée', detail: 'Tâche «\u202fOuverture du magasin\u202f» non faite : attendue à 8 h.' },
  };
  const missed: MessageAlert = { ...alert, severity: 'warning', key: null, peak: null, last: null };

  it('names the task, what went wrong and the site, never a sensor’s value or limit', () => {
    const { subject, text } = alertEmail(missed, task, 'opened', { now: NOW, publicUrl: 'https://vigie.example.fr' });
    expect(plain(subject)).toBe('[Vigie] Avertissement – Ouverture du magasin : tâche manquée');
    expect(plain(text)).toContain('Avertissement sur « Ouverture du magasin » (Lyon Part-Dieu).');
    expect(plain(text)).toContain('Tâche manquée : Tâche « Ouverture du magasin » non faite');
    expect(plain(text)).toContain('Site : Lyon Part-Dieu');
    expect(text).not.toContain('Limite');
    expect(text).toContain(`/dashboard/alertes/${alert.id}`);
    expect(subject).toContain(`${NNBSP}:`);
  });

  it('pushes the same headline and what went wrong', () => {
    const push = alertPush(missed, task, 'opened', { now: NOW, publicUrl: 'https://vigie.example.fr' });
    expect(plain(push.title)).toBe('Avertissement – Ouverture du magasin : tâche manquée');
    expect(plain(push.body)).toContain('« Ouverture du magasin » (Lyon Part-Dieu)');
    expect(plain(push.body)).toContain('Tâche manquée');
  });
});
