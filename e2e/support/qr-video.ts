import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

/**
 * A video of a printed QR code for Chromium's fake camera (`--use-file-for-fake-video-capture`):
 * a raw Y4M file (4:2:0), black modules on white paper, slightly off-centre like a hand-held label.
 */
export function writeQrVideo(file: string, text: string, { width = 640, height = 480, frames = 5 } = {}): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const moduleSize = Math.floor((Math.min(width, height) * 0.6) / size);
  const left = Math.floor((width - size * moduleSize) / 2) + 20;
  const top = Math.floor((height - size * moduleSize) / 2) - 10;

  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!qr.modules.get(y, x)) continue;
      for (let dy = 0; dy < moduleSize; dy++) {
        const row = (top + y * moduleSize + dy) * width;
        luma.fill(16, row + left + x * moduleSize, row + left + (x + 1) * moduleSize);
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
