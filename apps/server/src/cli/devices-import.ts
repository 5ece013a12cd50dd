import { readFileSync } from 'node:fs';
import { sendAdminRequest } from '../adapters/admin-socket/admin-client.ts';
import { loadConfigOrExit } from '../config.ts';
import { importFactoryBatch } from '../modules/devices/claiming-service.ts';
import { fail, openCliDatabase } from './cli-support.ts';
import { parseFactoryBatch } from './factory-batch.ts';

const USAGE = 'Usage : npm run devices:import -- FICHIER.csv   (en-tête : serial;kind;model;claimCode)';

/** The French plural ending: « 1 appareil importé », « 2 appareils importés ». */
const s = (count: number) => (count > 1 ? 's' : '');

/** `npm run devices:import -- FILE.csv`: loads a maker's batch of labelled devices, all or nothing. */
async function main(): Promise<void> {
  const [file, ...rest] = process.argv.slice(2);
  if (!file || rest.length > 0 || file.startsWith('-')) fail(USAGE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    fail(`Fichier illisible : ${file}`);
  }
  const { devices, errors } = parseFactoryBatch(text);
  if (errors.length > 0) fail(`${errors.join('\n')}\nRien n’a été importé.`);

  const config = loadConfigOrExit();
  const report = ({ added, unchanged }: { added: string[]; unchanged: string[] }) => {
    for (const serial of unchanged) console.log(`${serial} : déjà importé, inchangé.`);
    const [a, u] = [added.length, unchanged.length];
    console.log(`${a} appareil${s(a)} importé${s(a)}, ${u} déjà connu${s(u)} (inchangé${s(u)}).`);
  };

  // The embedded database opens in one process only: a server running on it imports the batch.
  if (!config.databaseUrl) {
    const response = await sendAdminRequest(config.dataDir, { command: 'devices:import', devices }).catch((error: unknown) =>
      fail(error instanceof Error ? error.message : String(error)),
    );
    if (response && !response.ok) fail(`${response.message}\nRien n’a été importé.`);
    if (response && 'imported' in response) return report(response.imported);
  }

  const database = await openCliDatabase(config);
  try {
    report(await importFactoryBatch(database.db, devices));
  } finally {
    await database.close();
  }
}

await main();
