import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CodecResult } from './codec-result';

describe('CodecResult', () => {
  it('names the style a pasted source was recognised in, beside its values', () => {
    render(
      <CodecResult outcome={{ ok: true, readings: [{ ts: null, values: { temperature: 30.8 } }], warnings: [], style: 'chirpstack-v3' }} />,
    );
    expect(screen.getByTestId('codec-style').textContent).toBe('Style reconnu\u202F: ChirpStack v3, Decode(fPort, bytes, variables)');
    expect(screen.getByText('Trame décodée.')).toBeTruthy();
  });

  it('names it above a decoding error too, and says nothing of a style when there is none', () => {
    const { unmount } = render(<CodecResult outcome={{ ok: false, error: 'Trame trop courte.', style: 'ttn-v2' }} />);
    expect(screen.getByTestId('codec-style').textContent).toBe('Style reconnu\u202F: The Things Network v2, Decoder(bytes, port)');
    expect(screen.getByRole('alert').textContent).toContain('Trame trop courte.');
    unmount();
    render(<CodecResult outcome={{ ok: false, error: 'Trame trop courte.' }} />);
    expect(screen.queryByTestId('codec-style')).toBeNull();
  });
});
