import { useOutletContext } from 'react-router';

/** What the signed-in layout offers the page it frames. */
export type SignedInOutletContext = {
  /** Replaces the whole frame with the 404 page (a device that does not exist). */
  showNotFound: () => void;
};

export function useSignedInOutlet(): SignedInOutletContext {
  return useOutletContext<SignedInOutletContext>();
}
