import {
  type Codec as CodecView,
  type CodecOutcome,
  type SaveCodecRequest,
  saveCodecRequestSchema,
  type TestCodecRequest,
  testCodecRequestSchema,
} from '@vigie/contract';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { CODECS, codecById, type CodecResult } from './codecs/index.ts';
import { type CodecRun, createCodecRunner } from './codec-runner.ts';
import { flatMeasures, type SandboxResult } from './codec-sandbox.ts';
import type { LorawanDal, PastedCodecRecord } from './lorawan-dal.ts';
import type { NetworkMessage } from './network-messages.ts';

/** The codec that keeps the network server's own decoding (`decoded_payload`, `object`). */
export const NETWORK_CODEC = 'network';
/** A pasted codec's id, as devices name it. */
export const CUSTOM_PREFIX = 'custom:';
/** How long a pasted codec is trusted from memory. */
const MEMORY_MS = 5_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const NETWORK_CODEC_VIEW: CodecView = {
  id: NETWORK_CODEC,
  vendor: 'Serveur de réseau',
  model: 'Décodage fait par le serveur de réseau',
  measures: [],
};
const pastedView = (record: PastedCodecRecord): CodecView => ({
  id: `${CUSTOM_PREFIX}${record.id}`,
  vendor: 'Décodeur de l’organisation',
  model: record.name,
  measures: record.measures,
});

/** The network server's own decoding, kept where it is a flat object of finite numbers (or booleans) under valid measure names. */
function fromNetworkDecoding(decoded: Record<string, unknown> | null): CodecResult {
  if (!decoded)
    return { ok: false, error: 'Le serveur de réseau n’a pas décodé cette trame, et aucun décodeur n’est choisi pour l’appareil.' };
  const { values } = flatMeasures(decoded);
  if (Object.keys(values).length === 0)
    return { ok: false, error: 'Le décodage du serveur de réseau ne contient aucune valeur numérique.' };
  return { ok: true, readings: [{ ts: null, values }], warnings: [] };
}

/** A codec's result as the API tells it (dates as ISO strings); a pasted codec's with the style its source was read in. */
function outcome(result: SandboxResult): CodecOutcome {
  const style = result.style ? { style: result.style } : {};
  if (!result.ok) return { ok: false, error: result.error, ...style };
  return {
    ok: true,
    readings: result.readings.map((reading) => ({ ts: reading.ts?.toISOString() ?? null, values: reading.values })),
    warnings: result.warnings,
    ...style,
  };
}

/**
 * The codecs that read LoRaWAN frames: the built-in ones, the network server's own decoding, and
 * the organization's pasted codecs, which run in their sandbox (codec-runner.ts) and are tried on a
 * sample frame before they are saved.
 */
export function createLorawanCodecs(deps: { dal: LorawanDal; now: () => Date }) {
  const { dal } = deps;
  const runner = createCodecRunner({ now: deps.now });
  const pastedCodecs = new Map<string, { record: PastedCodecRecord | undefined; until: number }>();
  const sampleOf = (input: { payloadHex: string; fPort?: number | undefined }) => ({
    bytes: new Uint8Array(Buffer.from(input.payloadHex, 'hex')),
    fPort: input.fPort ?? 1,
    recvTime: deps.now(),
  });

  /** The organization's pasted codec of this id (`custom:<uuid>`), if any. */
  async function pastedCodec(organizationId: string, id: string): Promise<PastedCodecRecord | undefined> {
    const uuid = id.slice(CUSTOM_PREFIX.length);
    if (!id.startsWith(CUSTOM_PREFIX) || !UUID.test(uuid)) return undefined;
    // Kept a few seconds, as a registration is: a pasted codec never changes, and a flood of frames then costs no query each.
    const key = `${organizationId}|${uuid}`;
    const known = pastedCodecs.get(key);
    if (known && known.until > Date.now()) return known.record;
    const record = await dal.codec(organizationId, uuid);
    if (pastedCodecs.size > 50_000) pastedCodecs.clear();
    pastedCodecs.set(key, { record, until: Date.now() + MEMORY_MS });
    return record;
  }

  return {
    pastedCodec,

    /** Reads an uplink's frame with the device's codec: built in, pasted (in its sandbox), or the network server's own decoding. */
    async decode(
      organizationId: string,
      codecId: string,
      message: Extract<NetworkMessage, { kind: 'uplink' }>,
      at: Date,
    ): Promise<CodecRun> {
      const codec = codecId === NETWORK_CODEC ? null : codecById(codecId);
      // A pasted codec's frame refused (its queue full, its codec suspended) before anything is looked up: a flood costs little.
      const refused = codecId.startsWith(CUSTOM_PREFIX) && message.bytes ? runner.refusal({ organizationId, codec: codecId }) : null;
      const pasted = codec || refused ? undefined : await pastedCodec(organizationId, codecId);
      const frame = message.bytes ? { bytes: message.bytes, fPort: message.fPort ?? 0, recvTime: at } : null;
      if (refused) return { ok: false, refused: true, error: refused };
      if ((codec || pasted) && !frame) return { ok: true, readings: [], warnings: [] };
      if (codec && frame) return codec.decode(frame);
      if (pasted && frame) return runner.run(pasted.source, frame, { organizationId, codec: codecId });
      if (codecId.startsWith(CUSTOM_PREFIX)) return { ok: false, error: 'Le décodeur collé de cet appareil a été supprimé.' };
      return fromNetworkDecoding(message.decoded);
    },

    /** The built-in codecs, the network server's own decoding, then the organization's pasted codecs. */
    async codecs(organizationId: string): Promise<CodecView[]> {
      return [
        ...CODECS.map(({ id, vendor, model, measures }) => ({ id, vendor, model, measures: [...measures] })),
        NETWORK_CODEC_VIEW,
        ...(await dal.listCodecs(organizationId)).map(pastedView),
      ];
    },

    /** A pasted codec tried on a sample frame, in its sandbox. */
    async testCodec(organizationId: string, input: TestCodecRequest): Promise<CodecOutcome> {
      const { source, payloadHex, fPort } = testCodecRequestSchema.parse(input);
      return outcome(await runner.run(source, sampleOf({ payloadHex, fPort }), { organizationId }));
    },

    /** Saved once its sample frame decodes: a codec that fails, loops or overflows is refused with its reason. */
    async saveCodec(organizationId: string, input: SaveCodecRequest): Promise<CodecView> {
      const { name, source, payloadHex, fPort } = saveCodecRequestSchema.parse(input);
      const tried = await runner.run(source, sampleOf({ payloadHex, fPort }), { organizationId });
      if (!tried.ok) throw badRequest(`Décodeur refusé : ${tried.error}`);
      const measures = [...new Set(tried.readings.flatMap((reading) => Object.keys(reading.values)))];
      return pastedView(await dal.saveCodec({ organizationId, name, source, measures }));
    },

    async removeCodec(organizationId: string, id: string): Promise<PastedCodecRecord> {
      const record = await dal.codec(organizationId, id);
      if (!record) throw notFound('Décodeur introuvable.');
      if ((await dal.devicesUsing(organizationId, `${CUSTOM_PREFIX}${id}`)) > 0) {
        throw conflict('Des appareils lisent encore leurs trames avec ce décodeur : choisissez-leur-en un autre d’abord.');
      }
      await dal.removeCodec(organizationId, id);
      pastedCodecs.delete(`${organizationId}|${id}`);
      return record;
    },

    close: () => runner.close(),
  };
}

export type LorawanCodecs = ReturnType<typeof createLorawanCodecs>;
