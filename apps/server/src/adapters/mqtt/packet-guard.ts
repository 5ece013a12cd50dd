import type { Socket } from 'node:net';

/**
 * Watches the MQTT packets that arrive on a connection, by their fixed header only (type byte,
 * then the remaining length in 1 to 4 bytes), and calls `refuse` as soon as a packet announces
 * more than `maxPacketBytes`: before its body is read, so a client cannot make the broker buffer
 * a 250 MiB publish. Returns false from then on; the caller closes the connection.
 */
export function createPacketSizeGuard(maxPacketBytes: number, refuse: (announced: number) => void): (chunk: Buffer) => boolean {
  // Bytes of the current packet's body still to skip; -1 while reading a fixed header.
  let skip = -1;
  let length = 0;
  let multiplier = 1;
  let headerBytes = 0;
  let refused = false;

  return (chunk) => {
    if (refused) return false;
    let offset = 0;
    while (offset < chunk.length) {
      if (skip > 0) {
        const taken = Math.min(skip, chunk.length - offset);
        skip -= taken;
        offset += taken;
        if (skip > 0) return true;
        skip = -1;
        continue;
      }
      const byte = chunk[offset] as number;
      offset += 1;
      if (headerBytes === 0) {
        // The packet type and flags: the remaining length follows.
        headerBytes = 1;
        length = 0;
        multiplier = 1;
        continue;
      }
      headerBytes += 1;
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      // With another length byte to come, the length is at least `length + multiplier`.
      const atLeast = byte & 0x80 ? length + multiplier : length;
      if (atLeast > maxPacketBytes || (byte & 0x80 && headerBytes > 4)) {
        refused = true;
        refuse(length);
        return false;
      }
      if ((byte & 0x80) === 0) {
        headerBytes = 0;
        skip = length > 0 ? length : -1;
      }
    }
    return true;
  };
}

/** Closes the connection of a client whose packet announces more than the limit (see createPacketSizeGuard). */
export function guardPacketSize(socket: Socket, maxPacketBytes: number, onRefused: (announced: number) => void): void {
  const accept = createPacketSizeGuard(maxPacketBytes, (announced) => {
    onRefused(announced);
    socket.destroy();
  });
  // Added beside the broker's 'readable' listener: it sees each chunk as the broker reads it, and
  // the header comes in the first chunk of a packet, long before its body.
  socket.on('data', (chunk: Buffer) => void accept(chunk));
}
