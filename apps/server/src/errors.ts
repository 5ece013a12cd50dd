/** A failure a client can act on: an HTTP status and one French sentence. Thrown by services. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (message: string) => new AppError(404, message);
export const unauthorized = (message: string) => new AppError(401, message);
export const badRequest = (message: string) => new AppError(400, message);
export const conflict = (message: string) => new AppError(409, message);
export const forbidden = (message: string) => new AppError(403, message);

export const MESSAGES = {
  invalidCredentials: 'Identifiants invalides',
  ssoRequired:
    'Votre organisation exige l’authentification unique pour cette adresse : choisissez « Se connecter avec l’authentification unique ».',
  wrongCurrentPassword: 'Le mot de passe actuel est incorrect.',
  authRequired: 'Authentification requise : connectez-vous pour continuer.',
  sessionInvalid: 'Session invalide ou expirée : reconnectez-vous.',
  challengeExpired: 'La connexion a expiré : saisissez de nouveau votre mot de passe.',
  routeNotFound: "Cette adresse n'existe pas dans l'API Vigie.",
  databaseUnavailable: 'La base de données est momentanément indisponible. Réessayez dans quelques instants.',
  internal: 'Une erreur interne est survenue. Réessayez dans quelques instants.',
  invalidJson: "Le corps de la requête n'est pas un JSON valide.",
  emptyJson: 'Le corps de la requête est vide alors que du JSON est attendu.',
  bodyTooLarge: 'Le corps de la requête est trop volumineux.',
  unsupportedMediaType: 'Type de contenu non pris en charge : envoyez du JSON (Content-Type: application/json).',
  tooManyAttempts: (seconds: number) => `Trop de tentatives de connexion. Réessayez dans ${Math.ceil(seconds / 60)} min.`,
} as const;
