import type { Alert } from '@vigie/contract';
import { describe, expect, it } from 'vitest';
import { alertValue } from './components/alert-value';
import { planAlertFinding, planAlertLabel, planAlertState } from './plan-alert';

const opened = (text: string): Alert['events'] => [{ type: 'opened', at: '2026-11-23T07:00:00.000Z', text }];

describe('an alert of the food-safety plan', () => {
  it('says what went wrong instead of a measure: a missed task, a non-conforming one, a failed process', () => {
    const missed = {
      key: null,
      last: null,
      taskId: 'a',
      processId: null,
      events: opened('Tâche « Ouverture » non faite : attendue de 8 h.'),
    };
    const failing = { key: null, last: null, taskId: 'b', events: opened('Tâche « Ouverture » non conforme : Température (7,2 °C).') };
    const process = { key: null, last: null, processId: 'c', events: opened('Refroidissement rapide de « Blanquette » en échec.') };
    expect(alertValue(missed)).toBe('Tâche manquée');
    expect(alertValue(failing)).toBe('Non conforme');
    expect(alertValue(process)).toBe('En échec');
    expect(planAlertFinding({ events: failing.events })).toBe('Tâche « Ouverture » non conforme : Température (7,2 °C).');
    expect(planAlertLabel(process)).toBe('Refroidissement ou maintien au chaud');
    expect(planAlertLabel(missed)).toBe('Tâche du plan de maîtrise sanitaire');
    expect(planAlertState({ taskId: 'd' })).toBe('Non conforme');
    // A sensor's silence is still « Hors ligne ».
    expect(alertValue({ key: null, last: null })).toBe('Hors ligne');
  });
});
