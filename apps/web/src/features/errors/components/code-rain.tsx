import { useEffect, useRef } from 'react';
import { useDocumentVisible } from '@/hooks/use-document-visible';
import { usePrefersReducedMotion } from '@/hooks/use-prefers-reduced-motion';

// ASCII only: every system font has these glyphs.
const GLYPHS = '0101010110<>/{}[]#$%&*+=;:VIGIE';
const FONT_SIZE = 16;
const FRAME_MS = 1000 / 24;

/** Falling characters behind the error pages, drawn on a canvas. */
export function CodeRain() {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const reducedMotion = usePrefersReducedMotion();
  const visible = useDocumentVisible();

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;

    let drops: number[] = [];
    let width = 0;
    let height = 0;

    const resize = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      width = window.innerWidth;
      height = window.innerHeight;
      canvas.width = Math.floor(width * ratio);
      canvas.height = Math.floor(height * ratio);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      const columns = Math.ceil(width / FONT_SIZE);
      drops = Array.from({ length: columns }, (_, index) => drops[index] ?? Math.floor(Math.random() * (height / FONT_SIZE)));
      context.fillStyle = 'rgb(2 6 23)';
      context.fillRect(0, 0, width, height);
    };

    const draw = (trail: number) => {
      context.fillStyle = `rgb(2 6 23 / ${trail})`;
      context.fillRect(0, 0, width, height);
      context.font = `${FONT_SIZE}px ui-monospace, monospace`;
      drops.forEach((row, column) => {
        const glyph = GLYPHS.charAt(Math.floor(Math.random() * GLYPHS.length));
        context.fillStyle = Math.random() > 0.975 ? 'rgb(224 242 254 / 0.9)' : 'rgb(34 211 238 / 0.55)';
        context.fillText(glyph, column * FONT_SIZE, row * FONT_SIZE);
        drops[column] = row * FONT_SIZE > height && Math.random() > 0.975 ? 0 : row + 1;
      });
    };

    resize();
    window.addEventListener('resize', resize);

    if (reducedMotion || !visible) {
      // A still picture: a few passes without the falling motion.
      for (let pass = 0; pass < 24; pass += 1) draw(0.08);
      return () => window.removeEventListener('resize', resize);
    }

    let frame = 0;
    let last = 0;
    const loop = (time: number) => {
      if (time - last >= FRAME_MS) {
        last = time;
        draw(0.09);
      }
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);

    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', resize);
    };
  }, [reducedMotion, visible]);

  return (
    <canvas
      ref={canvasRef}
      data-testid="code-rain"
      aria-hidden="true"
      className="pointer-events-none fixed inset-0 -z-10 h-full w-full opacity-60"
    />
  );
}
