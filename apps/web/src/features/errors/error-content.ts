export type ErrorCode = '404' | '500' | '403' | '401' | '503';

export type ErrorContent = {
  code: ErrorCode;
  title: string;
  description: string;
  action: { label: string; to: string };
  /** The falling-code effect; the maintenance page stays calm. */
  codeRain: boolean;
};

export const ERROR_CONTENT: Record<ErrorCode, ErrorContent> = {
  '404': {
    code: '404',
    title: 'Erreur 404',
    description: 'La page que vous cherchez n’existe pas ou a été déplacée. Vérifiez l’adresse ou repartez de l’accueil.',
    action: { label: "Retourner à l'accueil", to: '/' },
    codeRain: true,
  },
  '500': {
    code: '500',
    title: 'Erreur Serveur',
    description: 'Le serveur a rencontré un problème et n’a pas pu répondre. Réessayez dans quelques instants.',
    action: { label: "Retourner à l'accueil", to: '/' },
    codeRain: true,
  },
  '403': {
    code: '403',
    title: 'Accès Interdit',
    description:
      'Vous n’avez pas les droits nécessaires pour consulter cette page. Contactez l’administrateur de votre organisation si besoin.',
    action: { label: 'Retourner au tableau de bord', to: '/dashboard' },
    codeRain: true,
  },
  '401': {
    code: '401',
    title: 'Non Autorisé',
    description: 'Vous devez être connecté pour accéder à cette page. Connectez-vous pour continuer.',
    action: { label: 'Se connecter', to: '/login' },
    codeRain: true,
  },
  '503': {
    code: '503',
    title: 'Maintenance',
    description: 'Vigie est en cours de maintenance pour vous offrir un service encore meilleur. Nous serons de retour très bientôt.',
    action: { label: 'Vérifier le statut', to: '/' },
    codeRain: false,
  },
};

/** The content for a code from the URL; any unknown code shows the 404 page. */
export function errorContentFor(code: string | undefined): ErrorContent {
  return code && Object.hasOwn(ERROR_CONTENT, code) ? ERROR_CONTENT[code as ErrorCode] : ERROR_CONTENT['404'];
}
