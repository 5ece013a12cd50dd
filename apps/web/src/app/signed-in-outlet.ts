import { useLayoutEffect } from 'react';
import { useOutletContext } from 'react-router';
import { ApiError } from '@/lib/api-client';

/** What the signed-in layout offers the page it frames. */
export type SignedInOutletContext = {
  /** Replaces the whole frame with the 404 page (a device that does not exist). */
  showNotFound: () => void;
};

export function useSignedInOutlet(): SignedInOutletContext {
  return useOutletContext<SignedInOutletContext>();
}

/**
 * For a page about one thing (a device, an alert): when the API says it does not exist (404, or
 * 400 for a malformed id), the whole frame shows the 404 page. Returns whether it does.
 */
export function useNotFoundGuard(error: unknown): boolean {
  const { showNotFound } = useSignedInOutlet();
  const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
  useLayoutEffect(() => {
    if (notFound) showNotFound();
  }, [notFound, showNotFound]);
  return notFound;
}
