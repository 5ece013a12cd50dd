export interface CodecInput {
  bytes: Uint8Array;
  fPort: number;
  recvTime: Date;
}

/** One reading; ts null = the network's reception time. Values use Vigie's measure names. */
export interface DecodedReading {
  ts: Date | null;
  values: Record<string, number>;
}

export type CodecResult =
  | { ok: true; readings: DecodedReading[]; warnings: string[] }
  // A French sentence that says what was wrong with the frame.
  | { ok: false; error: string };

export interface Codec {
  /** Stable identifier stored with the device, e.g. `milesight-em300-th`. */
  id: string;
  vendor: string;
  model: string;
  /** Measure names the codec can produce, e.g. `['temperature', 'humidity', 'battery']`. */
  measures: string[];
  /** Never throws, whatever the bytes. */
  decode(input: CodecInput): CodecResult;
}
