import { formatDateAt } from '@vigie/contract/clock';

/** The e-mail that carries a password reset link, in French. */
export function passwordResetEmail(input: { link: string; expiresAt: Date }): { subject: string; text: string } {
  const expires = formatDateAt(input.expiresAt, 'Europe/Paris');
  return {
    subject: 'Réinitialiser votre mot de passe Vigie',
    text: [
      'Bonjour,',
      '',
      'Une demande de réinitialisation du mot de passe de votre compte Vigie a été faite.',
      '',
      'Pour choisir un nouveau mot de passe, ouvrez ce lien\u202F:',
      input.link,
      '',
      `Ce lien ne sert qu’une fois et expire le ${expires} (heure de Paris).`,
      '',
      'Si vous n’avez rien demandé, ignorez ce message\u202F: votre mot de passe ne change pas.',
    ].join('\n'),
  };
}
