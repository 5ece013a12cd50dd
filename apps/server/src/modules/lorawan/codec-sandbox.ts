import { MAX_VALUES_PER_READING, measureNameProblem } from '@vigie/contract';
import { getQuickJS, type QuickJSWASMModule } from 'quickjs-emscripten';
import type { CodecInput, CodecResult, DecodedReading } from './codecs/index.ts';

/** A pasted codec's limits: its time per frame, its memory, its stack, its source. */
export const SANDBOX_LIMITS = { timeMs: 50, memoryBytes: 4 * 1024 * 1024, stackBytes: 256 * 1024, sourceBytes: 64 * 1024 } as const;

/** A codec stopped past its time (by its interpreter, or by the watchdog of its thread). */
export const TIME_EXCEEDED = `Le décodeur a dépassé ${SANDBOX_LIMITS.timeMs} ms sur cette trame : il a été arrêté.`;

/** Interrupt checks (each some 10 000 operations) a codec gets before its time can stop it. */
const MIN_INTERRUPT_CHECKS = 4;

let engine: Promise<QuickJSWASMModule> | null = null;
/** The QuickJS engine (compiled to WebAssembly), loaded once. */
export const quickJS = () => (engine ??= getQuickJS());

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Of a decoder's flat output, the numbers (booleans as 1/0) under valid measure names, as many as a reading holds; the other keys in `ignored`. */
export function flatMeasures(data: Record<string, unknown>): { values: Record<string, number>; ignored: string[] } {
  const values = Object.create(null) as Record<string, number>;
  const ignored: string[] = [];
  let kept = 0;
  for (const [key, value] of Object.entries(data)) {
    const number = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    if (measureNameProblem(key) !== null || typeof number !== 'number' || !Number.isFinite(number) || kept >= MAX_VALUES_PER_READING) {
      ignored.push(key.slice(0, 40));
      continue;
    }
    values[key] = number;
    kept += 1;
  }
  return { values, ignored };
}

/**
 * The three styles makers publish their codecs in: LoRa Alliance TS013 `decodeUplink(input)` →
 * `{data, warnings?, errors?}`; ChirpStack v3 `Decode(fPort, bytes, variables)` and The Things
 * Network v2 `Decoder(bytes, port)` → the object of values itself.
 */
export const PASTED_STYLES = ['ts013', 'chirpstack-v3', 'ttn-v2'] as const;
export type PastedStyle = (typeof PASTED_STYLES)[number];

/** How each style's function is named in messages. */
const STYLE_FUNCTION: Record<PastedStyle, string> = { ts013: 'decodeUplink', 'chirpstack-v3': 'Decode', 'ttn-v2': 'Decoder' };

/** A pasted codec's result, with the style its source was recognised in (none when it defines no known function). */
export type SandboxResult = CodecResult & { style?: PastedStyle };

export const NO_DECODER =
  'Le décodeur doit définir decodeUplink(input) (LoRa Alliance TS013), Decode(fPort, bytes, variables) (ChirpStack v3) ou Decoder(bytes, port) (The Things Network v2).';

/**
 * What the codec returned, read as its style says: TS013's `{data, warnings?, errors?}`, or the
 * values themselves for ChirpStack v3 and TTN v2; the values flat numbers (booleans as 1/0) under measure names.
 */
function readOutput(output: unknown, style: PastedStyle): CodecResult {
  const name = STYLE_FUNCTION[style];
  if (style !== 'ts013') {
    if (!isObject(output)) return { ok: false, error: `${name} doit rendre un objet de valeurs.` };
    return readOutput({ data: output }, 'ts013');
  }
  if (!isObject(output)) return { ok: false, error: `${name} doit rendre un objet {data, warnings?, errors?}.` };
  const errors = Array.isArray(output['errors']) ? output['errors'].filter((e): e is string => typeof e === 'string') : [];
  if (errors.length > 0) return { ok: false, error: `Le décodeur signale : ${errors.slice(0, 3).join(' ; ').slice(0, 200)}` };
  const warnings = Array.isArray(output['warnings'])
    ? output['warnings'].filter((w): w is string => typeof w === 'string').slice(0, 10)
    : [];
  const data = output['data'];
  if (!isObject(data)) return { ok: false, error: `${name} doit rendre ses valeurs dans « data », un objet.` };
  const { values, ignored } = flatMeasures(data);
  if (ignored.length > 0)
    warnings.push(`Champs laissés de côté (ni nombre ni booléen, ou nom invalide) : ${ignored.slice(0, 8).join(', ')}.`);
  if (Object.keys(values).length === 0) return { ok: false, error: 'Le décodeur n’a rendu aucune valeur numérique dans « data ».' };
  const reading: DecodedReading = { ts: null, values };
  return { ok: true, readings: [reading], warnings };
}

/**
 * The code run after the pasted source: finds the function it defines (`decodeUplink` first, then
 * `Decode`, then `Decoder`), calls it on the frame and answers `[style, output]` as JSON. In a
 * function of its own, so that the source's own names (`input`, `style`…) change nothing here.
 */
function callerOf(input: CodecInput): string {
  const bytes = JSON.stringify(Array.from(input.bytes));
  const fPort = Number(input.fPort) | 0;
  const recvTime = Number(input.recvTime.getTime()) || 0;
  return `;(function () {
  var bytes = ${bytes};
  if (typeof decodeUplink === 'function') return JSON.stringify(['ts013', decodeUplink({ bytes: bytes, fPort: ${fPort}, recvTime: new Date(${recvTime}) })]);
  if (typeof Decode === 'function') return JSON.stringify(['chirpstack-v3', Decode(${fPort}, bytes, {})]);
  if (typeof Decoder === 'function') return JSON.stringify(['ttn-v2', Decoder(bytes, ${fPort})]);
  return JSON.stringify([null, null]);
})();`;
}

/**
 * The style a source declares, read from its text (`function Decode(`, `Decode = …`): told with the
 * error of a codec that failed or was stopped before it could answer, in the same order of preference.
 */
function declaredStyle(source: string): PastedStyle | undefined {
  const defines = (name: string) => new RegExp(`\\bfunction\\s+${name}\\s*\\(|\\b${name}\\s*=[^=]`).test(source);
  return PASTED_STYLES.find((style) => defines(STYLE_FUNCTION[style]));
}

/** JSON from the interpreter, or undefined when it is not (a codec may replace JSON.stringify). */
function parsed(json: string | null): unknown {
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Runs a pasted codec (`decodeUplink(input)` of LoRa Alliance TS013, `Decode(fPort, bytes,
 * variables)` of ChirpStack v3 or `Decoder(bytes, port)` of The Things Network v2) on one frame, in
 * a QuickJS interpreter of its own: no `process`, `require`, `fetch`, file or network; stopped past
 * 50 ms or 8 MiB. Never throws: a codec that fails, loops or overflows is a French error. The
 * result names the style recognised.
 */
export async function runPastedCodec(source: string, input: CodecInput): Promise<SandboxResult> {
  if (Buffer.byteLength(source, 'utf8') > SANDBOX_LIMITS.sourceBytes) {
    return { ok: false, error: `Le décodeur dépasse ${SANDBOX_LIMITS.sourceBytes / 1024} Kio.` };
  }
  const result = await runInSandbox(source, input);
  if (result.style || (!result.ok && result.error === NO_DECODER)) return result;
  const declared = declaredStyle(source);
  return declared ? { ...result, style: declared } : result;
}

async function runInSandbox(source: string, input: CodecInput): Promise<SandboxResult> {
  const engineModule = await quickJS();
  const runtime = engineModule.newRuntime();
  runtime.setMemoryLimit(SANDBOX_LIMITS.memoryBytes);
  runtime.setMaxStackSize(SANDBOX_LIMITS.stackBytes);
  const deadline = Date.now() + SANDBOX_LIMITS.timeMs;
  let interrupted = false;
  // QuickJS asks every 10 000 or so operations. A codec is stopped once past its time and only
  // after some real work: a short decoder is never stopped because the machine was busy elsewhere.
  let asked = 0;
  runtime.setInterruptHandler(() => (interrupted = (asked += 1) >= MIN_INTERRUPT_CHECKS && Date.now() > deadline));
  const context = runtime.newContext();
  try {
    const result = context.evalCode(`${source}\n${callerOf(input)}`, 'decodeur.js');
    if (result.error) {
      const failure: unknown = context.dump(result.error);
      result.error.dispose();
      if (interrupted) return { ok: false, error: TIME_EXCEEDED };
      const text = isObject(failure) ? `${String(failure['name'] ?? 'Error')}: ${String(failure['message'] ?? '')}` : String(failure);
      if (/out of memory/i.test(text))
        return {
          ok: false,
          error: `Le décodeur a dépassé la mémoire permise (${SANDBOX_LIMITS.memoryBytes / 1024 / 1024} Mio) : il a été arrêté.`,
        };
      if (/stack overflow/i.test(text))
        return { ok: false, error: 'Le décodeur a dépassé la pile permise (récursion trop profonde) : il a été arrêté.' };
      return { ok: false, error: `Le décodeur a échoué : ${text.slice(0, 200)}` };
    }
    const json = context.typeof(result.value) === 'string' ? context.getString(result.value) : null;
    result.value.dispose();
    // The answer is the codec's to forge (it may replace JSON.stringify): read as untrusted.
    const answer = parsed(json);
    const style = Array.isArray(answer) ? PASTED_STYLES.find((known) => known === answer[0]) : undefined;
    if (!style) return { ok: false, error: NO_DECODER };
    return { ...readOutput(Array.isArray(answer) ? answer[1] : undefined, style), style };
  } catch (error) {
    // The engine itself gave up (its memory exhausted while building the answer): the codec is refused.
    return { ok: false, error: `Le décodeur a été arrêté : ${error instanceof Error ? error.message.slice(0, 120) : 'erreur'}.` };
  } finally {
    context.dispose();
    runtime.dispose();
  }
}
