import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SkeletonGrid } from './skeleton';

describe('SkeletonGrid', () => {
  it('shows 6 placeholder cards by default', () => {
    render(<SkeletonGrid />);
    expect(screen.getAllByTestId('skeleton-card')).toHaveLength(6);
    expect(screen.getByRole('status')).toHaveTextContent('Chargement…');
  });

  it('shows the requested number of cards', () => {
    render(<SkeletonGrid count={8} />);
    expect(screen.getAllByTestId('skeleton-card')).toHaveLength(8);
  });
});
