import { useEffect, useState } from 'react';

/** A QR code drawn in the browser; the qrcode library loads in its own chunk, only here. */
export function QrCode({ value, label }: { value: string; label: string }) {
  const [image, setImage] = useState<{ value: string; url: string } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    import('qrcode')
      .then((qrcode) =>
        qrcode.toDataURL(value, { errorCorrectionLevel: 'M', margin: 2, width: 480, color: { dark: '#020617', light: '#ffffff' } }),
      )
      .then((url) => {
        if (!cancelled) setImage({ value, url });
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [value]);

  if (failed) return <p className="text-sm text-red-200">Le code QR n’a pas pu être dessiné. Saisissez la clé à la main.</p>;
  if (!image || image.value !== value) {
    return (
      <div
        role="status"
        aria-label="Génération du code QR…"
        className="aspect-square w-full max-w-60 animate-pulse rounded-xl bg-white/10 motion-reduce:animate-none"
      />
    );
  }
  return <img src={image.url} alt={label} width={240} height={240} className="aspect-square w-full max-w-60 rounded-xl bg-white" />;
}
