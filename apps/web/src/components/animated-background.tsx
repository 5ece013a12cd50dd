import { useEffect, useRef } from 'react';
import { useDocumentVisible } from '@/hooks/use-document-visible';
import { usePrefersReducedMotion } from '@/hooks/use-prefers-reduced-motion';

type Layer = { element: HTMLElement; depth: number };

/**
 * Decorative background: drifting gradient blobs over a faint grid, with a parallax that
 * follows the pointer. Only transforms change, in one requestAnimationFrame loop that stops
 * as soon as the layers reach the pointer, while the tab is hidden and under reduced motion.
 *
 * `drift`: the blobs also drift on their own, endlessly. For the public pages; the signed-in
 * pages stay open all day on a shop's tablet, where a never-ending animation would keep a
 * processor core busy (measured: more than one core of Chromium without a GPU) for nothing.
 */
export function AnimatedBackground({ drift = true }: { drift?: boolean }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const reducedMotion = usePrefersReducedMotion();
  const visible = useDocumentVisible();

  useEffect(() => {
    const root = rootRef.current;
    if (!root || reducedMotion || !visible) return;

    const layers: Layer[] = Array.from(root.querySelectorAll<HTMLElement>('[data-depth]')).map((element) => ({
      element,
      depth: Number(element.dataset['depth'] ?? 0),
    }));
    const spotlight = root.querySelector<HTMLElement>('[data-spotlight]');
    const target = { x: 0, y: 0, px: window.innerWidth / 2, py: window.innerHeight / 3 };
    const current = { ...target };
    let frame = 0;

    const render = () => {
      current.x += (target.x - current.x) * 0.08;
      current.y += (target.y - current.y) * 0.08;
      current.px += (target.px - current.px) * 0.12;
      current.py += (target.py - current.py) * 0.12;
      for (const { element, depth } of layers) {
        element.style.transform = `translate3d(${(current.x * depth).toFixed(2)}px, ${(current.y * depth).toFixed(2)}px, 0)`;
      }
      if (spotlight) {
        spotlight.style.transform = `translate3d(${(current.px - 300).toFixed(1)}px, ${(current.py - 300).toFixed(1)}px, 0)`;
      }
      const settled =
        Math.abs(target.x - current.x) < 0.05 &&
        Math.abs(target.y - current.y) < 0.05 &&
        Math.abs(target.px - current.px) < 0.5 &&
        Math.abs(target.py - current.py) < 0.5;
      frame = settled ? 0 : requestAnimationFrame(render);
    };

    const onPointerMove = (event: PointerEvent) => {
      // -1..1 from the centre of the viewport.
      target.x = (event.clientX / window.innerWidth - 0.5) * 2;
      target.y = (event.clientY / window.innerHeight - 0.5) * 2;
      target.px = event.clientX;
      target.py = event.clientY;
      if (!frame) frame = requestAnimationFrame(render);
    };

    frame = requestAnimationFrame(render);
    window.addEventListener('pointermove', onPointerMove, { passive: true });
    return () => {
      window.removeEventListener('pointermove', onPointerMove);
      cancelAnimationFrame(frame);
    };
  }, [reducedMotion, visible]);

  return (
    <div
      ref={rootRef}
      aria-hidden="true"
      data-paused={!visible}
      className="animated-bg pointer-events-none fixed inset-0 -z-10 overflow-hidden bg-slate-950"
    >
      <div data-depth="-10" className="absolute -inset-16 will-change-transform">
        <div className="bg-grid absolute inset-0" />
      </div>
      <div data-depth="28" className="absolute inset-0 will-change-transform">
        <div
          className={`absolute -left-[20vmax] -top-[18vmax] h-[55vmax] w-[55vmax] rounded-full ${drift ? 'animate-blob-drift' : ''} bg-[radial-gradient(circle_at_center,rgb(34_211_238/0.22),transparent_62%)]`}
        />
      </div>
      <div data-depth="-22" className="absolute inset-0 will-change-transform">
        <div
          className={`absolute -right-[22vmax] top-[8vh] h-[60vmax] w-[60vmax] rounded-full ${drift ? 'animate-blob-drift-slow' : ''} bg-[radial-gradient(circle_at_center,rgb(139_92_246/0.22),transparent_62%)]`}
        />
      </div>
      <div data-depth="16" className="absolute inset-0 will-change-transform">
        <div
          className={`absolute -bottom-[26vmax] left-[18vw] h-[50vmax] w-[50vmax] rounded-full ${drift ? 'animate-blob-drift' : ''} bg-[radial-gradient(circle_at_center,rgb(16_185_129/0.14),transparent_62%)]`}
        />
      </div>
      <div
        data-spotlight
        className="absolute left-0 top-0 h-[600px] w-[600px] rounded-full bg-[radial-gradient(circle_at_center,rgb(56_189_248/0.08),transparent_60%)] will-change-transform"
      />
      <div className="absolute inset-x-0 bottom-0 h-1/3 bg-gradient-to-t from-slate-950 to-transparent" />
    </div>
  );
}
