import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LiveIndicator } from './live-indicator';

describe('LiveIndicator', () => {
  it('says the values are live once the stream answers', () => {
    render(<LiveIndicator status="live" />);
    expect(screen.getByRole('status')).toHaveTextContent(/^En direct/);
  });

  it('says it is connecting, then that the live view dropped and may be out of date', () => {
    const { rerender } = render(<LiveIndicator status="connecting" />);
    expect(screen.getByRole('status')).toHaveTextContent('Connexion au direct…');
    rerender(<LiveIndicator status="reconnecting" />);
    expect(screen.getByRole('status')).toHaveTextContent('Direct interrompu, reconnexion…');
    expect(screen.getByRole('status')).toHaveTextContent('Les valeurs affichées peuvent ne plus être à jour.');
  });
});
