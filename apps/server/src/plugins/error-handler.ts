import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { AppError, MESSAGES } from '../errors.ts';

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: MESSAGES.unsupportedMediaType,
  FST_ERR_CTP_BODY_TOO_LARGE: MESSAGES.bodyTooLarge,
  FST_ERR_CTP_EMPTY_JSON_BODY: MESSAGES.emptyJson,
  FST_ERR_CTP_INVALID_JSON_BODY: MESSAGES.invalidJson,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'La longueur annoncée du corps de la requête est incorrecte.',
  FST_ERR_CTP_INVALID_CONTENT_TYPE: MESSAGES.unsupportedMediaType,
};

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Requête invalide.',
  404: MESSAGES.routeNotFound,
  405: 'Méthode non autorisée pour cette adresse.',
  406: 'Format de réponse non pris en charge : acceptez du JSON.',
  408: 'La requête a pris trop de temps.',
  413: MESSAGES.bodyTooLarge,
  415: MESSAGES.unsupportedMediaType,
};

function validationMessage(
  error: Parameters<typeof hasZodFastifySchemaValidationErrors>[0] & { validation: { instancePath: string; message?: string }[] },
): string {
  const first = error.validation[0];
  if (!first) return 'Requête invalide.';
  const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const message = first.message ?? 'valeur invalide';
  return field ? `${message} (champ « ${field} »)` : message;
}

/** Turns every error into `{message}` with the right status; internals never reach the client. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ message: validationMessage(error) });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'Base de données indisponible');
      return reply.code(503).header('retry-after', '5').send({ message: MESSAGES.databaseUnavailable });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const known = (error.code && FASTIFY_MESSAGES[error.code]) ?? STATUS_MESSAGES[status];
      const message = known ?? (error instanceof SyntaxError ? MESSAGES.invalidJson : 'Requête invalide.');
      return reply.code(status).send({ message });
    }
    request.log.error({ err: error }, 'Erreur non prévue');
    return reply.code(500).send({ message: MESSAGES.internal });
  });
}
