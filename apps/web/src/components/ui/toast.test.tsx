import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showToast, Toaster } from './toast';

afterEach(() => {
  vi.useRealTimers();
});

describe('Toaster', () => {
  it('announces the message politely, offers its action and leaves the focus where it was', async () => {
    const onUndo = vi.fn();
    render(
      <>
        <button type="button">Ailleurs</button>
        <Toaster />
      </>,
    );
    const elsewhere = screen.getByRole('button', { name: 'Ailleurs' });
    elsewhere.focus();
    act(() => void showToast({ message: 'Capteur supprimé', action: { label: 'Annuler', onClick: onUndo } }));

    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent('Capteur supprimé');
    expect(elsewhere).toHaveFocus();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Annuler' }));
    expect(onUndo).toHaveBeenCalledTimes(1);
    expect(region).not.toHaveTextContent('Capteur supprimé');
  });

  it('goes away by itself after about 10 seconds', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => void showToast({ message: 'Émetteur supprimé' }));
    act(() => vi.advanceTimersByTime(9_000));
    expect(screen.getByRole('status')).toHaveTextContent('Émetteur supprimé');
    act(() => vi.advanceTimersByTime(1_500));
    expect(screen.getByRole('status')).not.toHaveTextContent('Émetteur supprimé');
  });
});
