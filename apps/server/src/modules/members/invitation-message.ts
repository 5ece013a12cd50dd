import { ROLE_LABELS, type Role } from '@vigie/contract';
import { formatDateAt } from '@vigie/contract/clock';

/** The e-mail that carries an invitation link (docs/api.md, Membres et invitations), in French. */
export function invitationEmail(input: {
  organizationName: string;
  inviterName: string;
  role: Role;
  /** What the person will see: « toute l’organisation », or the shops and regions by name; null: not said. */
  access?: string | null;
  link: string;
  expiresAt: Date;
}): {
  subject: string;
  text: string;
} {
  const expires = formatDateAt(input.expiresAt, 'Europe/Paris');
  return {
    subject: `Invitation à rejoindre ${input.organizationName} sur Vigie`,
    text: [
      'Bonjour,',
      '',
      `${input.inviterName} vous invite à rejoindre l’organisation «\u202F${input.organizationName}\u202F» sur Vigie, avec le rôle ${ROLE_LABELS[input.role]}.`,
      ...(input.access ? [`Accès\u202F: ${input.access}.`] : []),
      '',
      'Pour accepter, ouvrez ce lien puis choisissez votre nom et votre mot de passe\u202F:',
      input.link,
      '',
      `Ce lien ne sert qu’une fois et expire le ${expires} (heure de Paris).`,
      '',
      'Si vous ne vous attendiez pas à cette invitation, ignorez simplement ce message.',
    ].join('\n'),
  };
}

/** Tells a member that an admin reset their two-factor authentication: expected, or a warning. */
export function twoFactorResetEmail(input: { organizationName: string; adminName: string; link: string }): {
  subject: string;
  text: string;
} {
  return {
    subject: 'Votre double authentification Vigie a été réinitialisée',
    text: [
      'Bonjour,',
      '',
      `${input.adminName}, administrateur de «\u202F${input.organizationName}\u202F» sur Vigie, vient de réinitialiser la double authentification de votre compte. Vos sessions ont été fermées.`,
      '',
      'Connectez-vous avec votre mot de passe, puis réactivez-la dans «\u202FMon compte\u202F»\u202F:',
      input.link,
      '',
      'Si vous n’avez rien demandé, changez votre mot de passe et prévenez aussitôt un autre administrateur de votre organisation.',
    ].join('\n'),
  };
}
