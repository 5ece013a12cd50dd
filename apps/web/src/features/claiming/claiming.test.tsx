import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { labelRefusal } from './api/claim-device';
import { FIRST_SIGNAL_HELP_AFTER_MS, FirstSignal } from './components/first-signal';
import { cameraErrorMessage, LabelScanner } from './components/label-scanner';

describe('LabelScanner', () => {
  it('says in French when the browser cannot open a camera, and lets the label be typed', async () => {
    const onIdentified = vi.fn();
    render(<LabelScanner onIdentified={onIdentified} />);
    await userEvent.click(screen.getByRole('button', { name: 'Scanner l’étiquette' }));
    expect(screen.getByRole('alert')).toHaveTextContent(/saisissez le numéro de série et le code ci-dessous/);

    await userEvent.click(screen.getByRole('button', { name: 'Continuer' }));
    expect(onIdentified).not.toHaveBeenCalled();
    expect(screen.getAllByRole('alert').at(-1)).toHaveTextContent('Saisissez le numéro de série et le code imprimés sur l’étiquette.');

    await userEvent.type(screen.getByLabelText('Numéro de série'), ' VIG-123456 ');
    await userEvent.type(screen.getByLabelText('Code de l’étiquette'), 'abcd-efgh-jklm');
    await userEvent.click(screen.getByRole('button', { name: 'Continuer' }));
    expect(onIdentified).toHaveBeenCalledWith({ serial: 'VIG-123456', claimCode: 'abcd-efgh-jklm' });
  });

  it('reads a LoRaWAN label (TR005) typed in the serial’s field, and goes on to its notice', async () => {
    const onIdentified = vi.fn();
    render(<LabelScanner onIdentified={onIdentified} lorawanNotice={(sensor) => <button type="button">Ajouter {sensor.devEui}</button>} />);
    expect(screen.getByLabelText('Numéro de série')).toHaveAccessibleDescription(/texte de son code QR \(LW:D0:…\)/);
    await userEvent.type(screen.getByLabelText('Numéro de série'), 'LW:D0:24E124C0002A0001:24E124136B502217:00010001:S6136D1983554');
    expect(screen.getByRole('button', { name: 'Ajouter 24e124136b502217' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continuer' }));
    expect(onIdentified).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Ajouter 24e124136b502217' })).toHaveFocus();
  });

  it('shows a refused label on the field it concerns, which takes the focus, and says when it is being checked', () => {
    const refusal = { message: 'Le numéro de série ne doit pas dépasser 64 caractères.', field: 'serial' as const };
    const { rerender } = render(<LabelScanner onIdentified={vi.fn()} refusal={refusal} />);
    const serial = screen.getByLabelText('Numéro de série');
    expect(serial).toHaveAttribute('aria-invalid', 'true');
    expect(serial).toHaveAccessibleDescription(refusal.message);
    expect(serial).toHaveFocus();
    expect(screen.getByLabelText('Code de l’étiquette')).not.toHaveAttribute('aria-invalid');

    rerender(<LabelScanner onIdentified={vi.fn()} checking />);
    expect(screen.getByRole('button', { name: 'Vérification…' })).toBeDisabled();
    expect(serial).not.toHaveAttribute('aria-invalid');
  });

  it('tells which field a refusal of the label is about', () => {
    const unknown = 'Appareil introuvable : vérifiez le numéro de série et le code de l’étiquette.';
    expect(labelRefusal(new ApiError(unknown, 404))).toEqual({ message: unknown, field: 'code' });
    expect(labelRefusal(new ApiError('Le code de l’étiquette compte au moins 6 caractères.', 400)).field).toBe('code');
    expect(labelRefusal(new ApiError('Le numéro de série est obligatoire.', 400)).field).toBe('serial');
    expect(labelRefusal(new ApiError('Cet appareil est déjà installé dans votre organisation (« Vitrine »).', 409)).field).toBeNull();
    expect(labelRefusal(new ApiError('Trop de codes d’étiquette invalides. Réessayez dans 15 min.', 429)).field).toBeNull();
    expect(labelRefusal(new ApiError('', 0))).toEqual({
      message: 'La vérification de l’étiquette a échoué\u202F: réessayez.',
      field: null,
    });
  });

  it('names each camera failure and what to do instead', () => {
    expect(cameraErrorMessage(new DOMException('denied', 'NotAllowedError'))).toMatch(/^Accès à la caméra refusé/);
    expect(cameraErrorMessage(new DOMException('none', 'NotFoundError'))).toMatch(/^Aucune caméra disponible/);
    expect(cameraErrorMessage(new DOMException('busy', 'NotReadableError'))).toMatch(/occupée par une autre application/);
    expect(cameraErrorMessage(new Error('?'))).toMatch(/n’a pas pu s’ouvrir/);
  });
});

describe('FirstSignal', () => {
  const now = Date.now();

  it('waits, then shows the first value in French with the device in place', () => {
    const { rerender } = render(<FirstSignal name="Vitrine" heard={false} latest={{}} installedAt={now} actions={null} />);
    expect(screen.getByRole('status')).toHaveTextContent('En attente du premier signal…');
    expect(screen.getByText('Que vérifier si rien n’arrive')).toBeInTheDocument();
    rerender(
      <FirstSignal
        name="Vitrine"
        heard
        latest={{ temperature: { value: 4.2, ts: new Date(now).toISOString() } }}
        installedAt={now}
        actions={<a href="/x">Voir l’appareil</a>}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent(/^Reçu\s:\s4,2\s°C — l’appareil est en place$/);
    expect(screen.getByRole('link', { name: 'Voir l’appareil' })).toBeInTheDocument();
  });

  it('opens what to check when nothing came for two minutes', () => {
    render(<FirstSignal name="Porte" heard={false} latest={{}} installedAt={now - FIRST_SIGNAL_HELP_AFTER_MS} actions={null} />);
    expect(screen.getByText('Rien n’arrive depuis 2 min : que vérifier')).toBeVisible();
    expect(screen.getByText('L’alimentation')).toBeVisible();
    expect(screen.getByText('La distance')).toBeVisible();
    expect(screen.getByText('Les piles')).toBeVisible();
  });
});
