import { errorResponseSchema, idParamsSchema } from '../common.ts';
import {
  createOperatorOrganizationRequestSchema,
  operatorOrganizationResponseSchema,
  operatorOrganizationsResponseSchema,
  updateOperatorOrganizationRequestSchema,
} from '../operator.ts';
import { endpoint, operatorAccess } from './define.ts';

const operatorTag = 'Opérateur';
const errors = { 400: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };

/** The operator's view of the client organizations (docs/api.md, Opérateur). */
export const operatorEndpoints = {
  operator: {
    organizations: endpoint({
      method: 'GET',
      path: '/api/operator/organizations',
      summary: 'Liste les organisations clientes, leur statut, leur forfait, leurs quotas et leur consommation (10 s au plus de retard).',
      description: 'Réservé aux opérateurs : pour toute autre personne, connectée ou non, 404.',
      tag: operatorTag,
      access: operatorAccess,
      schema: { response: { 200: operatorOrganizationsResponseSchema, 404: errorResponseSchema } },
    }),
    createOrganization: endpoint({
      method: 'POST',
      path: '/api/operator/organizations',
      summary: 'Crée une organisation cliente et invite par e-mail son premier administrateur.',
      description: 'Sans `plan` ni `quotas`, aucune limite. Nom déjà pris ou adresse qui a déjà un compte : 409.',
      tag: operatorTag,
      access: operatorAccess,
      schema: { body: createOperatorOrganizationRequestSchema, response: { 201: operatorOrganizationResponseSchema, ...errors } },
    }),
    updateOrganization: endpoint({
      method: 'PUT',
      path: '/api/operator/organizations/:id',
      summary: 'Suspend ou réactive une organisation, change son forfait ou ses quotas ; la réactiver annule un effacement prévu.',
      tag: operatorTag,
      access: operatorAccess,
      schema: {
        params: idParamsSchema,
        body: updateOperatorOrganizationRequestSchema,
        response: { 200: operatorOrganizationResponseSchema, ...errors },
      },
    }),
    deleteOrganization: endpoint({
      method: 'DELETE',
      path: '/api/operator/organizations/:id',
      summary: 'Prévoit l’effacement de l’organisation dans 30 jours (statut « erasing »), annulable d’ici là.',
      tag: operatorTag,
      access: operatorAccess,
      schema: { params: idParamsSchema, response: { 202: operatorOrganizationResponseSchema, ...errors } },
    }),
  },
};
