import { apiBlob } from './api-client';

/** The file name the server proposes in Content-Disposition, or `fallback`. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // Fall through to the plain form.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * Fetches a file from the API with the bearer token, then saves it through an object URL (a
 * plain link could not carry the Authorization header). Resolves with the name it was saved as.
 */
export async function downloadFile(path: string, { accept, fallbackName }: { accept: string; fallbackName: string }): Promise<string> {
  const { blob, disposition } = await apiBlob(path, { accept });
  const name = fileNameFrom(disposition, fallbackName);
  saveBlob(blob, name);
  return name;
}

/** Hands a file made in the page (or received) to the browser's download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
