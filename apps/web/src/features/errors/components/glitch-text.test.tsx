import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GlitchText } from './glitch-text';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('GlitchText', () => {
  it('glitches every 3000 ms for 150 ms', () => {
    render(<GlitchText text="404" />);
    const code = screen.getByTestId('error-code');
    expect(code).toHaveTextContent(/^404$/);
    expect(code).toHaveAttribute('data-glitch', 'false');

    act(() => vi.advanceTimersByTime(2999));
    expect(code).toHaveAttribute('data-glitch', 'false');
    act(() => vi.advanceTimersByTime(1));
    expect(code).toHaveAttribute('data-glitch', 'true');
    act(() => vi.advanceTimersByTime(149));
    expect(code).toHaveAttribute('data-glitch', 'true');
    act(() => vi.advanceTimersByTime(1));
    expect(code).toHaveAttribute('data-glitch', 'false');

    act(() => vi.advanceTimersByTime(2850));
    expect(code).toHaveAttribute('data-glitch', 'true');
    act(() => vi.advanceTimersByTime(150));
    expect(code).toHaveAttribute('data-glitch', 'false');
  });
});
