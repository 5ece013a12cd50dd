import { describe, expect, it } from 'vitest';
import { NO_DECODER, runPastedCodec } from './codec-sandbox.ts';

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
      style: 'ts013',
    });
  });

  it('passes the codec’s own errors on, in French', async () => {
    const result = await runPastedCodec(EM300_TS013, { ...FRAME, bytes: Uint8Array.from([0x09, 0x09, 0x01]) });
    expect(result).toEqual({ ok: false, error: 'Le décodeur signale : canal inconnu', style: 'ts013' });
  });

  // In the interpreter alone: an allocation the engine cannot interrupt may hold it for seconds; the
  // server runs codecs in a thread of their own, ended past its watchdog (codec-runner.ts, API tests).
  it('stops a codec that loops, allocates without end or recurses too deep, and the next one runs', async () => {
    const started = Date.now();
    const loop = await runPastedCodec('function decodeUplink(input) { while (true) {} }', FRAME);
    expect(loop).toEqual({ ok: false, error: 'Le décodeur a dépassé 50 ms sur cette trame : il a été arrêté.', style: 'ts013' });
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

  it('refuses what is not a codec of a known style with a French reason', async () => {
    const cases: [string, RegExp][] = [
      [
        'function decode(input) { return {}; }',
        /^Le décodeur doit définir decodeUplink\(input\) \(LoRa Alliance TS013\), Decode\(fPort, bytes, variables\) \(ChirpStack v3\) ou Decoder\(bytes, port\) \(The Things Network v2\)\.$/,
      ],
      ['var decodeUplink = 3;', /^Le décodeur doit définir decodeUplink/],
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

/** The same EM300-TH codec as ChirpStack v3 publishes it: `Decode(fPort, bytes, variables)` returns the values. */
const EM300_CHIRPSTACK_V3 = `
function Decode(fPort, bytes, variables) {
  var decoded = {};
  for (var i = 0; i < bytes.length;) {
    var channel = bytes[i++], type = bytes[i++];
    if (channel === 0x01 && type === 0x75) { decoded.battery = bytes[i]; i += 1; }
    else if (channel === 0x03 && type === 0x67) { var t = bytes[i] | (bytes[i + 1] << 8); if (t > 0x7fff) t -= 0x10000; decoded.temperature = t / 10; i += 2; }
    else if (channel === 0x04 && type === 0x68) { decoded.humidity = bytes[i] / 2; i += 1; }
    else break;
  }
  decoded.port = fPort;
  decoded.variables = typeof variables === 'object' && variables !== null ? 1 : 0;
  return decoded;
}`;

/** And as The Things Network v2 published it: `Decoder(bytes, port)` returns the values. */
const EM300_TTN_V2 = EM300_CHIRPSTACK_V3.replace(
  'function Decode(fPort, bytes, variables) {',
  'function Decoder(bytes, fPort) { var variables = {};',
);

describe('pasted codecs in the three styles makers publish', () => {
  it('runs a ChirpStack v3 codec: Decode(fPort, bytes, variables) returns the values', async () => {
    expect(await runPastedCodec(EM300_CHIRPSTACK_V3, FRAME)).toEqual({
      ok: true,
      readings: [{ ts: null, values: { battery: 92, temperature: 30.8, humidity: 50.5, port: 85, variables: 1 } }],
      warnings: [],
      style: 'chirpstack-v3',
    });
  });

  it('runs a The Things Network v2 codec: Decoder(bytes, port) returns the values', async () => {
    expect(await runPastedCodec(EM300_TTN_V2, FRAME)).toEqual({
      ok: true,
      readings: [{ ts: null, values: { battery: 92, temperature: 30.8, humidity: 50.5, port: 85, variables: 1 } }],
      warnings: [],
      style: 'ttn-v2',
    });
  });

  it('prefers decodeUplink when a source defines several, as makers write TS013 wrappers around their older function', async () => {
    // Milesight's own files: decodeUplink(input) calls Decoder(bytes, port) and wraps its values in « data ».
    const wrapper = `${EM300_TTN_V2}\nfunction decodeUplink(input) { var values = Decoder(input.bytes, input.fPort); values.wrapped = 1; return { data: values }; }`;
    const result = await runPastedCodec(wrapper, FRAME);
    expect(result).toMatchObject({ ok: true, style: 'ts013', readings: [{ values: { temperature: 30.8, wrapped: 1 } }] });
    const both = `${EM300_CHIRPSTACK_V3}\n${EM300_TTN_V2.replace('decoded.port = fPort;', 'decoded.port = -1;')}`;
    expect(await runPastedCodec(both, FRAME)).toMatchObject({ ok: true, style: 'chirpstack-v3', readings: [{ values: { port: 85 } }] });
  });

  it('recognises a function declared with const, let or var, arrow functions included', async () => {
    const sources: [string, string][] = [
      ['const Decoder = (bytes, port) => ({ first: bytes[0], port: port });', 'ttn-v2'],
      ['let Decode = function (fPort, bytes, variables) { return { first: bytes[0], port: fPort }; };', 'chirpstack-v3'],
      ['var decodeUplink = (input) => ({ data: { first: input.bytes[0], port: input.fPort } });', 'ts013'],
    ];
    for (const [source, style] of sources) {
      expect(await runPastedCodec(source, FRAME), source).toEqual({
        ok: true,
        readings: [{ ts: null, values: { first: 1, port: 85 } }],
        warnings: [],
        style,
      });
    }
  });

  it('reads the values of v3 and v2 as TS013 data: numbers and booleans kept, the rest told', async () => {
    const result = await runPastedCodec('function Decoder(bytes, port) { return { open: true, label: "x", nested: { a: 1 } }; }', FRAME);
    expect(result).toEqual({
      ok: true,
      readings: [{ ts: null, values: { open: 1 } }],
      warnings: ['Champs laissés de côté (ni nombre ni booléen, ou nom invalide) : label, nested.'],
      style: 'ttn-v2',
    });
  });

  it('refuses a v3 or v2 codec that returns no object, naming its function and its style', async () => {
    expect(await runPastedCodec('function Decode(fPort, bytes) { return 42; }', FRAME)).toEqual({
      ok: false,
      error: 'Decode doit rendre un objet de valeurs.',
      style: 'chirpstack-v3',
    });
    expect(await runPastedCodec('function Decoder(bytes, port) { return [1, 2]; }', FRAME)).toEqual({
      ok: false,
      error: 'Decoder doit rendre un objet de valeurs.',
      style: 'ttn-v2',
    });
    expect(await runPastedCodec('function Decoder(bytes, port) { throw new Error("trame inconnue"); }', FRAME)).toEqual({
      ok: false,
      error: 'Le décodeur a échoué : Error: trame inconnue',
      style: 'ttn-v2',
    });
    expect(await runPastedCodec('function decodeUplink(input) { return 42; }', FRAME)).toMatchObject({ style: 'ts013' });
  });

  it('keeps every style in the same sandbox: stopped past its time, no process, require or fetch', async () => {
    for (const [header, style] of [
      ['function Decode(fPort, bytes, variables)', 'chirpstack-v3'],
      ['function Decoder(bytes, port)', 'ttn-v2'],
    ] as const) {
      expect(await runPastedCodec(`${header} { while (true) {} }`, FRAME), header).toEqual({
        ok: false,
        error: 'Le décodeur a dépassé 50 ms sur cette trame : il a été arrêté.',
        style,
      });
      for (const reach of ['process.exit(1)', "require('fs')", "fetch('http://127.0.0.1/')"]) {
        const result = await runPastedCodec(`${header} { ${reach}; return { x: 1 }; }`, FRAME);
        expect(result.ok ? '' : result.error, reach).toMatch(/^Le décodeur a échoué : (ReferenceError|TypeError)/);
      }
    }
  });

  it('cannot forge its style or its answer by replacing JSON.stringify', async () => {
    const forged = await runPastedCodec(
      'JSON.stringify = function () { return \'["root", {"data": {"x": 1}}]\'; }; function Decoder(bytes) { return { x: 1 }; }',
      FRAME,
    );
    expect(forged).toEqual({ ok: false, error: NO_DECODER });
    const broken = await runPastedCodec(
      'JSON.stringify = function () { return "{"; }; function Decoder(bytes) { return { x: 1 }; }',
      FRAME,
    );
    expect(broken).toEqual({ ok: false, error: NO_DECODER });
  });
});
