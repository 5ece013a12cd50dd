import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HandoverLink } from './handover-link';

describe('HandoverLink', () => {
  it('shows the link to hand over when no e-mail left, and copies it', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<HandoverLink email="paul@boutique.fr" link="https://vigie.example.fr/invitation#abcdefghijklmnopqrstuvwxyz" />);
    const panel = screen.getByTestId('handover-link');
    expect(within(panel).getByRole('status')).toHaveTextContent('Invitation créée pour paul@boutique.fr. Ce serveur n’envoie pas d’e-mail');
    expect(within(panel).getByLabelText('Lien d’invitation pour paul@boutique.fr')).toHaveValue(
      'https://vigie.example.fr/invitation#abcdefghijklmnopqrstuvwxyz',
    );
    await user.click(within(panel).getByRole('button', { name: 'Copier le lien' }));
    expect(writeText).toHaveBeenCalledWith('https://vigie.example.fr/invitation#abcdefghijklmnopqrstuvwxyz');
    expect(await within(panel).findByText('Lien copié.')).toBeInTheDocument();
  });
});
