import { z } from 'zod';

/**
 * docs/api.md, Provisionnement SCIM: an identity provider (Microsoft Entra ID, Okta…) creates,
 * lists and removes the members of an organization through SCIM 2.0, with the organization's
 * SCIM token. The resources, messages and their schemas' names as the SCIM standard spells them.
 */
export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The media type of SCIM messages; plain JSON is read and accepted as well. */
export const SCIM_MEDIA_TYPE = 'application/scim+json';

/** The most users one page of a list gives (`count` beyond it is lowered). */
export const SCIM_MAX_RESULTS = 200;

/** The organization's new SCIM token, shown this once only (`Authorization: Bearer <token>`). */
export const scimTokenResponseSchema = z.object({ token: z.string() });
export type ScimTokenResponse = z.infer<typeof scimTokenResponseSchema>;

const metaSchema = z.object({
  resourceType: z.string(),
  created: z.string().optional(),
  lastModified: z.string().optional(),
  location: z.string(),
});

/** A member as a SCIM User: `userName` is the e-mail address; a member listed is active. */
export const scimUserSchema = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  userName: z.string(),
  name: z.object({ formatted: z.string() }).optional(),
  displayName: z.string().optional(),
  emails: z.array(z.object({ value: z.string(), type: z.string(), primary: z.boolean() })),
  active: z.boolean(),
  meta: metaSchema,
});
export type ScimUser = z.infer<typeof scimUserSchema>;

export const scimListResponseSchema = z.object({
  schemas: z.array(z.string()),
  totalResults: z.number().int(),
  startIndex: z.number().int(),
  itemsPerPage: z.number().int(),
  Resources: z.array(z.record(z.string(), z.unknown())),
});
export type ScimListResponse = z.infer<typeof scimListResponseSchema>;

/** A SCIM error: `status` is a string, `scimType` names the kind of a 400 or 409, `detail` says it in French. */
export const scimErrorSchema = z.object({
  schemas: z.array(z.string()),
  status: z.string(),
  scimType: z.string().optional(),
  detail: z.string(),
});
export type ScimError = z.infer<typeof scimErrorSchema>;

/** A SCIM request's body: read and checked by the server, which answers each problem with a SCIM error. */
export const scimBodySchema = z.unknown();

/** What a list of users reads: `filter` (`userName eq "…"`), `startIndex` (from 1), `count`. */
export const scimListQuerySchema = z.looseObject({
  filter: z.string().optional(),
  startIndex: z.string().optional(),
  count: z.string().optional(),
});

/** A SCIM resource's `:id`: any text, an unknown one answers 404 as a SCIM error. */
export const scimIdParamsSchema = z.object({ id: z.string() });

/** A discovery document (service provider configuration, resource types, schemas), as SCIM describes it. */
export const scimDocumentSchema = z.record(z.string(), z.unknown());
