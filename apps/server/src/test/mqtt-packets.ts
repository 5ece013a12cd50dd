/** Raw MQTT bytes, for tests that speak to a broker below the client library. */

/** An MQTT fixed header: the type byte, then the remaining length in 1 to 4 bytes. */
export function fixedHeader(type: number, remaining: number): Buffer {
  const bytes = [type];
  let rest = remaining;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}
