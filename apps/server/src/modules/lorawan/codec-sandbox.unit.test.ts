import { describe, expect, it } from 'vitest';
import { runPastedCodec } from './codec-sandbox.ts';

/** The Milesight EM300-TH frame of its maker's example: battery 92 %, 30,8 °C, 50,5 %. */
const FRAME = { bytes: Uint8Array.from(Buffer.from('01755c03673401046865', 'hex')), fPort: 85, recvTime: new Date('2026-11-27T08:00:00Z') };

/** A TS013 codec as an operator pastes it (channel/type pairs, little-endian). */
const EM300_TS013 = `
function decodeUplink(input) {
  var bytes = input.bytes, data = {};
  for (var i = 0; i < bytes.length;) {
    var channel = bytes[i++], type = bytes[i++];
    if (channel === 0x01 && type === 0x75) { data.battery = bytes[i]; i += 1; }
    else if (channel === 0x03 && type === 0x67) { var t = bytes[i] | (bytes[i + 1] << 8); if (t > 0x7fff) t -= 0x10000; data.temperature = t / 10; i += 2; }
    else if (channel === 0x04 && type === 0x68) { data.humidity = bytes[i] / 2; i += 1; }
    else return { errors: ['canal inconnu'] };
  }
  data.label = 'EM300';
  return { data: data, warnings: [] };
}`;

describe('pasted TS013 codecs, in their sandbox', () => {
  it('decodes a frame with a pasted codec, keeping the numbers under measure names', async () => {
    const result = await runPastedCodec(EM300_TS013, FRAME);
    expect(result).toEqual({
      ok: true,
      readings: [{ ts: null, values: { battery: 92, temperature: 30.8, humidity: 50.5 } }],
      warnings: ['Champs laissés de côté (ni nombre ni booléen, ou nom invalide) : label.'],
    });
  });

  it('passes the codec’s own errors on, in French', async () => {
    const result = await runPastedCodec(EM300_TS013, { ...FRAME, bytes: Uint8Array.from([0x09, 0x09, 0x01]) });
    expect(result).toEqual({ ok: false, error: 'Le décodeur signale : canal inconnu' });
  });

  // In the interpreter alone: an allocation the engine cannot interrupt may hold it for seconds; the
  // server runs codecs in a thread of their own, ended past its watchdog (codec-runner.ts, API tests).
  it('stops a codec that loops, allocates without end or recurses too deep, and the next one runs', async () => {
    const started = Date.now();
    const loop = await runPastedCodec('function decodeUplink(input) { while (true) {} }', FRAME);
    expect(loop).toEqual({ ok: false, error: 'Le décodeur a dépassé 50 ms sur cette trame : il a été arrêté.' });
    expect(Date.now() - started).toBeLessThan(1_000);
    // Small arrays: the engine checks its clock and its memory between them, where one native fill of
    // 100 000 elements held it for seconds (a minute on a loaded machine).
    const hungry = await runPastedCodec(
      'function decodeUplink(input) { var a = []; while (true) a.push(new Array(1000).fill(1)); }',
      FRAME,
    );
    expect(hungry.ok).toBe(false);
    expect(hungry.ok ? '' : hungry.error).toMatch(
      /^Le décodeur a dépassé (la mémoire permise \(4 Mio\)|50 ms sur cette trame) : il a été arrêté\.$/,
    );
    const deep = await runPastedCodec(
      'function f(n) { return f(n + 1) + 1; } function decodeUplink(input) { return { data: { x: f(0) } }; }',
      FRAME,
    );
    expect(deep.ok ? '' : deep.error).toMatch(/^Le décodeur a dépassé (la pile permise|la mémoire permise|50 ms)/);
    // The next codec runs as if nothing happened.
    expect((await runPastedCodec(EM300_TS013, FRAME)).ok).toBe(true);
  });

  it('gives a codec no way out of its sandbox: no process, require, fetch, files or network', async () => {
    for (const reach of [
      'process.exit(1)',
      "require('fs').readFileSync('/etc/passwd')",
      "fetch('http://127.0.0.1/')",
      'std.loadFile("/etc/passwd")',
      'os.exec(["ls"])',
    ]) {
      const result = await runPastedCodec(`function decodeUplink(input) { ${reach}; return { data: { x: 1 } }; }`, FRAME);
      expect(result.ok, reach).toBe(false);
      expect(result.ok ? '' : result.error).toMatch(/^Le décodeur a échoué : (ReferenceError|TypeError|SyntaxError)/);
    }
    const globals = await runPastedCodec(
      'function decodeUplink() { return { data: { process: typeof process === "undefined" ? 1 : 0, require: typeof require === "undefined" ? 1 : 0, fetch: typeof fetch === "undefined" ? 1 : 0 } }; }',
      FRAME,
    );
    expect(globals).toMatchObject({ ok: true, readings: [{ values: { process: 1, require: 1, fetch: 1 } }] });
  });

  it('refuses what is not a TS013 codec with a French reason', async () => {
    const cases: [string, RegExp][] = [
      ['function decode(input) { return {}; }', /^Le décodeur a échoué : ReferenceError/],
      ['function decodeUplink( {', /^Le décodeur a échoué : SyntaxError/],
      ['function decodeUplink() { return 42; }', /^decodeUplink doit rendre un objet/],
      ['function decodeUplink() { return { data: { text: "a" } }; }', /^Le décodeur n’a rendu aucune valeur numérique/],
      ['function decodeUplink() {}', /^decodeUplink doit rendre un objet/],
      [`// ${'x'.repeat(70 * 1024)}`, /^Le décodeur dépasse 64 Kio\.$/],
    ];
    for (const [source, message] of cases) {
      const result = await runPastedCodec(source, FRAME);
      expect(result.ok ? '' : result.error, source.slice(0, 40)).toMatch(message);
    }
  });
});
