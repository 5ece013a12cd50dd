import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServer } from '../test/child-process.ts';
import { databaseKind, tempDir } from '../test/test-app.ts';
import { parseFactoryBatch } from './factory-batch.ts';

describe('a maker’s batch file', () => {
  it('names every bad line by its number in the file, and keeps the good ones apart', () => {
    const text = [
      '\uFEFFserial;kind;model;claimCode',
      'VIG-000001;sensor;Vigie Froid T1;ABCD-EFGH-JKLM',
      'VIG-000002;fridge;Vigie Froid T1;ABCDEFGHJKLM',
      'VIG-000003;sensor;Vigie Froid T1',
      'VIG-000001;emitter;;MNPQRSTUVWXY',
      ';sensor;;ABCDEFGHJKLM',
      'VIG-000004;emitter;;MNPQ RSTU VWXY',
      '',
    ].join('\r\n');
    const { devices, errors } = parseFactoryBatch(text);
    expect(errors).toEqual([
      'Ligne 3 : Le type doit être « emitter » ou « sensor ».',
      'Ligne 4 : 4 colonnes attendues (serial;kind;model;claimCode), 3 trouvées.',
      'Ligne 5 : le numéro de série VIG-000001 figure déjà ligne 2.',
      'Ligne 6 : Le numéro de série est obligatoire.',
    ]);
    expect(devices).toEqual([
      { serial: 'VIG-000001', kind: 'sensor', model: 'Vigie Froid T1', claimCode: 'ABCDEFGHJKLM' },
      { serial: 'VIG-000004', kind: 'emitter', claimCode: 'MNPQRSTUVWXY' },
    ]);
    expect(parseFactoryBatch('serial,kind,model,claimCode\nA,sensor,,ABCDEFGH').errors).toEqual([
      'Ligne 1 : l’en-tête doit être « serial;kind;model;claimCode ».',
    ]);
  });
});

describe(`npm run devices:import on ${databaseKind}`, { timeout: 120_000 }, () => {
  const dataDir = tempDir();
  const env = { DATA_DIR: dataDir };
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const script = 'src/cli/devices-import.ts';

  it('imports nothing from a file with a bad line, imports a good one once, and a re-import changes nothing', async () => {
    const serial = `VIG-${randomUUID().slice(0, 8)}`.toUpperCase();
    const other = `VIG-${randomUUID().slice(0, 8)}`.toUpperCase();
    const bad = path.join(dataDir, 'bad.csv');
    fs.writeFileSync(bad, `serial;kind;model;claimCode\n${serial};sensor;Vigie Froid T1;ABCDEFGHJKLM\nVIG-X;sensor;;court\n`);
    const refused = await runCli([bad], env, script);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('Ligne 3 : Le code de l’étiquette compte au moins 6 caractères.');
    expect(refused.output).toContain('Rien n’a été importé.');

    const good = path.join(dataDir, 'lot.csv');
    fs.writeFileSync(good, `serial;kind;model;claimCode\n${serial};sensor;Vigie Froid T1;ABCDEFGHJKLM\n${other};emitter;;MNPQRSTUVWXY\n`);
    const first = await runCli([good], env, script);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('2 appareils importés, 0 déjà connu (inchangé).');

    fs.writeFileSync(good, `serial;kind;model;claimCode\n${serial};sensor;Vigie Froid T1;AUTRECODE99\n`);
    const second = await runCli([good], env, script);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain(`${serial} : déjà importé, inchangé.`);
    expect(second.output).toContain('0 appareil importé, 1 déjà connu (inchangé).');

    // The device knows only its first code: the refused line and the second file changed nothing.
    const server = await startServer(env);
    try {
      const ask = (claimCode: string) =>
        fetch(`${server.baseUrl}/api/devices/provision`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ serial, claimCode }),
        });
      expect((await ask('ABCDEFGHJKLM')).status).toBe(202);
      expect((await ask('AUTRECODE99')).status).toBe(404);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('explains how to call it', async () => {
    const result = await runCli([], env, script);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/Usage : npm run devices:import -- FICHIER\.csv/);
  });
});

describe.skipIf(databaseKind !== 'PGlite')('npm run devices:import beside a server that does not answer', { timeout: 120_000 }, () => {
  it('says the command works with the server running or stopped, never only « stop it »', async () => {
    const dataDir = tempDir();
    try {
      // A live process holds the folder's lock and no local channel answers: as a server whose channel did not open.
      fs.writeFileSync(path.join(dataDir, 'vigie.lock'), String(process.pid));
      const batch = path.join(dataDir, 'lot.csv');
      fs.writeFileSync(batch, 'serial;kind;model;claimCode\nVIG-LOCK0001;sensor;;ABCDEFGHJKLM\n');
      const result = await runCli([batch], { DATA_DIR: dataDir, DATABASE_URL: undefined }, 'src/cli/devices-import.ts');
      expect(result.code).not.toBe(0);
      const output = result.output.replace(/\u202f/g, ' ');
      expect(output).toContain(`Un serveur Vigie (PID ${process.pid}) utilise le dossier de données « ${dataDir} »`);
      expect(output).toContain(
        'Cette commande marche serveur lancé comme serveur arrêté : redémarrez le serveur pour qu’elle passe par lui, ou arrêtez-le, puis relancez-la.',
      );
      expect(output).not.toContain('Arrêtez-le, ou choisissez un autre dossier');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
