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

/** What `decodeUplink` returned, read as TS013 says: `{data, warnings?, errors?}`; `data` flat numbers (booleans as 1/0) under measure names. */
function readOutput(output: unknown): CodecResult {
  if (!isObject(output)) return { ok: false, error: 'decodeUplink doit rendre un objet {data, warnings?, errors?}.' };
  const errors = Array.isArray(output['errors']) ? output['errors'].filter((e): e is string => typeof e === 'string') : [];
  if (errors.length > 0) return { ok: false, error: `Le décodeur signale : ${errors.slice(0, 3).join(' ; ').slice(0, 200)}` };
  const warnings = Array.isArray(output['warnings'])
    ? output['warnings'].filter((w): w is string => typeof w === 'string').slice(0, 10)
    : [];
  const data = output['data'];
  if (!isObject(data)) return { ok: false, error: 'decodeUplink doit rendre ses valeurs dans « data », un objet.' };
  const { values, ignored } = flatMeasures(data);
  if (ignored.length > 0)
    warnings.push(`Champs laissés de côté (ni nombre ni booléen, ou nom invalide) : ${ignored.slice(0, 8).join(', ')}.`);
  if (Object.keys(values).length === 0) return { ok: false, error: 'Le décodeur n’a rendu aucune valeur numérique dans « data ».' };
  const reading: DecodedReading = { ts: null, values };
  return { ok: true, readings: [reading], warnings };
}

/**
 * Runs a pasted codec (`function decodeUplink(input) { … }`, LoRa Alliance TS013) on one frame, in
 * a QuickJS interpreter of its own: no `process`, `require`, `fetch`, file or network; stopped past
 * 50 ms or 8 MiB. Never throws: a codec that fails, loops or overflows is a French error.
 */
export async function runPastedCodec(source: string, input: CodecInput): Promise<CodecResult> {
  if (Buffer.byteLength(source, 'utf8') > SANDBOX_LIMITS.sourceBytes) {
    return { ok: false, error: `Le décodeur dépasse ${SANDBOX_LIMITS.sourceBytes / 1024} Kio.` };
  }
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
    const call = `${source}\n;JSON.stringify(decodeUplink({bytes: ${JSON.stringify(Array.from(input.bytes))}, fPort: ${Number(input.fPort) | 0}, recvTime: new Date(${input.recvTime.getTime()})}));`;
    const result = context.evalCode(call, 'decodeur.js');
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
    if (json === null) return { ok: false, error: 'decodeUplink doit rendre un objet {data, warnings?, errors?}.' };
    return readOutput(JSON.parse(json) as unknown);
  } catch (error) {
    // The engine itself gave up (its memory exhausted while building the answer): the codec is refused.
    return { ok: false, error: `Le décodeur a été arrêté : ${error instanceof Error ? error.message.slice(0, 120) : 'erreur'}.` };
  } finally {
    context.dispose();
    runtime.dispose();
  }
}
