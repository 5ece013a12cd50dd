import { useEffect, useState } from 'react';
import { GLITCH_DURATION_MS, GLITCH_INTERVAL_MS } from '@/config/constants';

type GlitchTextProps = {
  text: string;
  className?: string;
  intervalMs?: number;
  durationMs?: number;
};

/** Large text that glitches for `durationMs` every `intervalMs`. */
export function GlitchText({ text, className = '', intervalMs = GLITCH_INTERVAL_MS, durationMs = GLITCH_DURATION_MS }: GlitchTextProps) {
  const [glitching, setGlitching] = useState(false);

  useEffect(() => {
    let endTimer: ReturnType<typeof setTimeout> | undefined;
    const interval = setInterval(() => {
      setGlitching(true);
      clearTimeout(endTimer);
      endTimer = setTimeout(() => setGlitching(false), durationMs);
    }, intervalMs);
    return () => {
      clearInterval(interval);
      clearTimeout(endTimer);
    };
  }, [intervalMs, durationMs]);

  return (
    <div className={`relative inline-block ${className}`}>
      <p
        data-testid="error-code"
        data-glitch={glitching}
        className={`glitch-main bg-gradient-to-b from-white via-cyan-100 to-cyan-400/70 bg-clip-text text-transparent ${glitching ? 'glitch-active' : ''}`}
      >
        {text}
      </p>
      <span aria-hidden="true" className="glitch-layer glitch-layer-a">
        {text}
      </span>
      <span aria-hidden="true" className="glitch-layer glitch-layer-b">
        {text}
      </span>
    </div>
  );
}
