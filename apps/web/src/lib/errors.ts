/** The message of a thrown value, or `fallback` when it carries none. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message.trim()) return error.message;
  if (typeof error === 'string' && error.trim()) return error;
  return fallback;
}

/** Rethrows with `fallback` as the message when the failure says nothing useful. */
export async function withFallbackMessage<T>(task: Promise<T>, fallback: string): Promise<T> {
  try {
    return await task;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    if (error instanceof Error) {
      if (error.message.trim()) throw error;
      throw new Error(fallback, { cause: error });
    }
    throw new Error(error === undefined || error === null ? fallback : 'Unexpected error', { cause: error });
  }
}
