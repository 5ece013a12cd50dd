import { type FactoryDevice, factoryDeviceSchema } from '@vigie/contract';

export const FACTORY_BATCH_HEADER = 'serial;kind;model;claimCode';

/**
 * Reads a maker's batch (`serial;kind;model;claimCode`, UTF-8 with or without BOM, CRLF or LF):
 * every line is checked, and each bad one is named by its line number in the file.
 */
export function parseFactoryBatch(text: string): { devices: FactoryDevice[]; errors: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  const errors: string[] = [];
  const devices: FactoryDevice[] = [];
  const header = lines[0]?.trim().replace(/\s*;\s*/g, ';');
  if (header !== FACTORY_BATCH_HEADER) {
    return { devices, errors: [`Ligne 1 : l’en-tête doit être « ${FACTORY_BATCH_HEADER} ».`] };
  }
  const seen = new Map<string, number>();
  lines.slice(1).forEach((line, index) => {
    const number = index + 2;
    if (line.trim() === '') {
      errors.push(`Ligne ${number} : ligne vide.`);
      return;
    }
    const cells = line.split(';');
    if (cells.length !== 4) {
      errors.push(
        `Ligne ${number} : 4 colonnes attendues (${FACTORY_BATCH_HEADER}), ${cells.length} trouvée${cells.length > 1 ? 's' : ''}.`,
      );
      return;
    }
    const [serial, kind, model, claimCode] = cells.map((cell) => cell.trim());
    const parsed = factoryDeviceSchema.safeParse({ serial, kind, model: model || undefined, claimCode });
    if (!parsed.success) {
      errors.push(`Ligne ${number} : ${parsed.error.issues[0]?.message ?? 'ligne invalide.'}`);
      return;
    }
    const first = seen.get(parsed.data.serial);
    if (first !== undefined) {
      errors.push(`Ligne ${number} : le numéro de série ${parsed.data.serial} figure déjà ligne ${first}.`);
      return;
    }
    seen.set(parsed.data.serial, number);
    devices.push(parsed.data);
  });
  if (errors.length === 0 && devices.length === 0) errors.push('Le fichier ne contient aucun appareil.');
  return { devices, errors };
}
