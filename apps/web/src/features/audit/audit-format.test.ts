import { describe, expect, it } from 'vitest';
import { detailLines, subjectText } from './audit-format';

describe('audit trail wording', () => {
  it('says what changed in French, roles and booleans included', () => {
    expect(detailLines({ name: { from: 'Vitrine', to: 'Vitrine fromages' } })).toEqual(['Nom\u202F: Vitrine → Vitrine fromages']);
    expect(detailLines({ role: { from: 'manager', to: 'viewer' } })).toEqual(['Rôle\u202F: Responsable → Lecteur']);
    expect(detailLines({ enabled: { from: true, to: false }, delaySeconds: { from: 0, to: 1200 } })).toEqual([
      'Active\u202F: oui → non',
      'Délai (s)\u202F: 0 → 1\u202F200',
    ]);
    expect(detailLines({ siteId: { from: null, to: 'b' } })).toEqual(['Site\u202F: — → b']);
    expect(detailLines(null)).toEqual([]);
  });

  it('names the subject by its kind and its name as it was', () => {
    expect(subjectText({ type: 'sensor', id: 'x', name: 'Chambre froide' })).toBe('capteur « Chambre froide »');
    expect(subjectText({ type: 'invitation', id: 'x', name: null })).toBe('invitation');
    expect(subjectText(null)).toBeNull();
  });
});
