import { endpoints, SCIM_MAX_RESULTS, SCIM_SCHEMAS } from '@vigie/contract';
import { API_REFERENCE_PREFIX } from '../../plugins/openapi.ts';

/**
 * The SCIM discovery documents (docs/api.md, Provisionnement SCIM): what the service does, its one
 * resource type (User) and the attributes Vigie keeps of it. Minimal, as identity providers read them.
 */
export function scimDiscovery(publicUrl: string) {
  const url = (path: string) => `${publicUrl}${path}`;
  const meta = (resourceType: string, path: string) => ({ resourceType, location: url(path) });
  const attribute = (name: string, type: string, description: string, more: Record<string, unknown> = {}) => ({
    name,
    type,
    multiValued: false,
    description,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...more,
  });
  const userSchema = {
    schemas: [SCIM_SCHEMAS.schema],
    id: SCIM_SCHEMAS.user,
    name: 'User',
    description: 'Un membre de l’organisation.',
    attributes: [
      attribute('userName', 'string', 'L’adresse e-mail du membre, unique.', { required: true, uniqueness: 'server' }),
      attribute('name', 'complex', 'Le nom du membre.', {
        subAttributes: [
          attribute('formatted', 'string', 'Le nom complet.'),
          attribute('givenName', 'string', 'Le prénom.'),
          attribute('familyName', 'string', 'Le nom de famille.'),
        ],
      }),
      attribute('displayName', 'string', 'Le nom affiché, gardé comme nom du membre.'),
      attribute('emails', 'complex', 'L’adresse e-mail, celle de userName.', {
        multiValued: true,
        subAttributes: [
          attribute('value', 'string', 'L’adresse.'),
          attribute('type', 'string', 'work.'),
          attribute('primary', 'boolean', 'Toujours true.'),
        ],
      }),
      attribute('active', 'boolean', 'Toujours true pour un membre ; false le retire de l’organisation.'),
    ],
    meta: meta('Schema', `${endpoints.scim.schemas.path}/${SCIM_SCHEMAS.user}`),
  };
  const userType = {
    schemas: [SCIM_SCHEMAS.resourceType],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'Les membres de l’organisation.',
    schema: SCIM_SCHEMAS.user,
    schemaExtensions: [],
    meta: meta('ResourceType', `${endpoints.scim.resourceTypes.path}/User`),
  };
  const list = (resources: Record<string, unknown>[]) => ({
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  });
  return {
    serviceProviderConfig: {
      schemas: [SCIM_SCHEMAS.serviceProviderConfig],
      documentationUri: url(API_REFERENCE_PREFIX),
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'Jeton SCIM',
          description: 'Le jeton SCIM de l’organisation, créé par un administrateur dans Équipe : Authorization: Bearer <jeton>.',
          primary: true,
        },
      ],
      meta: meta('ServiceProviderConfig', endpoints.scim.serviceProviderConfig.path),
    },
    resourceTypes: list([userType]),
    schemas: list([userSchema]),
  };
}
