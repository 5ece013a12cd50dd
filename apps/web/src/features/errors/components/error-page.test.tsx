import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { ERROR_CONTENT, errorContentFor, type ErrorCode } from '../error-content';
import { ErrorPage } from './error-page';

const table: [ErrorCode, string, string, string][] = [
  ['404', 'Erreur 404', "Retourner à l'accueil", '/'],
  ['500', 'Erreur Serveur', "Retourner à l'accueil", '/'],
  ['403', 'Accès Interdit', 'Retourner au tableau de bord', '/dashboard'],
  ['401', 'Non Autorisé', 'Se connecter', '/login'],
  ['503', 'Maintenance', 'Vérifier le statut', '/'],
];

describe('ErrorPage', () => {
  it.each(table)('%s: title %s, button %s to %s', (code, title, button, target) => {
    renderWithProviders(<ErrorPage content={ERROR_CONTENT[code]} />);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByTestId('error-code')).toHaveTextContent(code);
    expect(screen.getByRole('link', { name: button })).toHaveAttribute('href', target);
    expect(screen.getByText(ERROR_CONTENT[code].description)).toBeInTheDocument();
  });

  it.each(table.map(([code]) => code))('has the code rain on %s except the maintenance page', (code) => {
    renderWithProviders(<ErrorPage content={ERROR_CONTENT[code]} />);
    if (code === '503') expect(screen.queryByTestId('code-rain')).not.toBeInTheDocument();
    else expect(screen.getByTestId('code-rain')).toBeInTheDocument();
  });

  it('shows the 404 content for an unknown or missing code', () => {
    expect(errorContentFor('418')).toBe(ERROR_CONTENT['404']);
    expect(errorContentFor('toString')).toBe(ERROR_CONTENT['404']);
    expect(errorContentFor(undefined)).toBe(ERROR_CONTENT['404']);
    expect(errorContentFor('403')).toBe(ERROR_CONTENT['403']);
  });
});
