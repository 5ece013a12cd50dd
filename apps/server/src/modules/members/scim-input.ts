import { nameSchema, newEmailSchema, SCIM_MAX_RESULTS, SCIM_SCHEMAS } from '@vigie/contract';
import { AppError } from '../../errors.ts';

/** The kinds of a SCIM 400 or 409 (the `scimType` of its error). */
export type ScimType = 'invalidFilter' | 'invalidSyntax' | 'invalidValue' | 'invalidPath' | 'noTarget' | 'uniqueness' | 'mutability';

/** A SCIM error: its status, a French sentence (`detail`) and, for a 400 or 409, its kind. */
export class ScimError extends AppError {
  constructor(
    statusCode: number,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(statusCode, message);
    this.name = 'ScimError';
  }
}

const invalid = (message: string, scimType: ScimType = 'invalidValue') => new ScimError(400, message, scimType);

/** What a User resource or a PatchOp may change of a member: their address, their name, whether they stay. */
export interface ScimChange {
  email?: string;
  name?: string | null;
  active?: boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An attribute of an object, its name in any letter case (SCIM attribute names are case-insensitive). */
function attribute(object: Json, name: string): unknown {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** A boolean, or its text in any case (`"False"`, as Microsoft Entra ID sends it). */
function booleanOf(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw invalid(`« ${field} » doit valoir true ou false.`);
}

function emailOf(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`« ${field} » doit être l’adresse e-mail du membre, en texte.`);
  const parsed = newEmailSchema.safeParse(value);
  if (!parsed.success) throw invalid(`« ${field} » : ${parsed.error.issues[0]?.message ?? 'adresse e-mail invalide.'}`);
  return parsed.data;
}

/** A name, or null for none (an empty text too). */
function nameOf(value: unknown, field: string): string | null {
  if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
  if (typeof value !== 'string') throw invalid(`« ${field} » doit être un texte.`);
  const parsed = nameSchema.safeParse(value);
  if (!parsed.success) throw invalid(`« ${field} » : ${parsed.error.issues[0]?.message ?? 'nom invalide.'}`);
  return parsed.data;
}

/** The name a `name` object gives: `formatted`, else its given and family names together. */
function nameFromObject(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!isObject(value)) throw invalid('« name » doit être un objet (formatted, givenName, familyName).');
  const formatted = attribute(value, 'formatted');
  if (formatted !== undefined && formatted !== null) return nameOf(formatted, 'name.formatted');
  const parts = ['givenName', 'familyName'].map((part) => {
    const text = attribute(value, part);
    if (text !== undefined && text !== null && typeof text !== 'string') throw invalid(`« name.${part} » doit être un texte.`);
    return typeof text === 'string' ? text.trim() : '';
  });
  const joined = parts.filter(Boolean).join(' ');
  return joined ? nameOf(joined, 'name') : undefined;
}

/** The work e-mail of an `emails` list (the primary one, else the first), to check it is the `userName`. */
function primaryEmail(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalid('« emails » doit être une liste d’adresses ({"value": "…"}).');
  const entries = value.map((entry) => {
    if (!isObject(entry)) throw invalid('Chaque élément de « emails » doit être un objet ({"value": "…"}).');
    return entry;
  });
  const chosen = entries.find((entry) => attribute(entry, 'primary') === true || attribute(entry, 'primary') === 'True') ?? entries[0];
  return chosen === undefined ? undefined : emailOf(attribute(chosen, 'value'), 'emails.value');
}

/** A SCIM request's body as an object, or a 400 that says what was expected. */
function bodyObject(body: unknown, what: string): Json {
  if (!isObject(body)) throw invalid(`Le corps de la requête doit être ${what} (un objet JSON).`, 'invalidSyntax');
  return body;
}

function checkSchemas(body: Json, schema: string, what: string): void {
  const schemas = attribute(body, 'schemas');
  if (schemas === undefined) return;
  if (!Array.isArray(schemas) || !schemas.some((urn) => typeof urn === 'string' && urn.toLowerCase() === schema.toLowerCase())) {
    throw invalid(`« schemas » doit contenir « ${schema} » ${what}.`, 'invalidSyntax');
  }
}

/**
 * A whole User resource (POST, PUT): `userName` (the address) required, the name from
 * `displayName`, else `name`, `active` true unless said otherwise. Other attributes are ignored.
 */
export function parseUserResource(body: unknown): Required<Pick<ScimChange, 'email' | 'active'>> & { name: string | null } {
  const user = bodyObject(body, 'une ressource User SCIM');
  checkSchemas(user, SCIM_SCHEMAS.user, 'pour une ressource User');
  const userName = attribute(user, 'userName');
  if (userName === undefined || userName === null || userName === '') {
    throw invalid('« userName » est obligatoire : c’est l’adresse e-mail du membre.');
  }
  const email = emailOf(userName, 'userName');
  primaryEmail(attribute(user, 'emails'));
  const displayName = attribute(user, 'displayName');
  const name =
    displayName !== undefined && displayName !== null
      ? nameOf(displayName, 'displayName')
      : (nameFromObject(attribute(user, 'name')) ?? null);
  const active = attribute(user, 'active');
  return { email, name, active: active === undefined || active === null ? true : booleanOf(active, 'active') };
}

const USER_URN_PREFIX = `${SCIM_SCHEMAS.user.toLowerCase()}:`;
const WORK_EMAIL = /^emails\[\s*type\s+eq\s+"work"\s*\]\.value$/;
const PRIMARY_EMAIL = /^emails\[\s*primary\s+eq\s+true\s*\]\.value$/;
/** At most this many operations in one PATCH. */
const MAX_OPERATIONS = 100;

/** What one attribute's path sets, for `add` and `replace` (`value` given); unknown attributes change nothing. */
function applyPath(change: ScimChange, rawPath: string, value: unknown): void {
  let path = rawPath.trim().toLowerCase();
  if (path.startsWith(USER_URN_PREFIX)) path = path.slice(USER_URN_PREFIX.length);
  if (path === 'active') change.active = booleanOf(value, 'active');
  else if (path === 'username') change.email = emailOf(value, 'userName');
  else if (path === 'displayname' || path === 'name.formatted') change.name = nameOf(value, rawPath.trim());
  else if (path === 'name') {
    const name = nameFromObject(value);
    if (name !== undefined) change.name = name;
  } else if (path === 'emails') {
    primaryEmail(Array.isArray(value) ? value : [value]);
  } else if (WORK_EMAIL.test(path) || PRIMARY_EMAIL.test(path) || path === 'emails.value') {
    emailOf(value, rawPath.trim());
  } else if (/[^a-z0-9._:[\]"\s-]/.test(path) || path === '') {
    throw invalid(`Chemin d’attribut invalide : « ${rawPath} ».`, 'invalidPath');
  }
  // Any other attribute (title, phoneNumbers, the enterprise extension…) is not kept by Vigie: ignored.
}

/**
 * A PatchOp (PATCH): each operation `add`, `replace` or `remove` in any case, on a `path` or, without
 * one, on the attributes of its `value` object; `"True"` and `"False"` read as booleans.
 */
export function parsePatch(body: unknown): ScimChange {
  const patch = bodyObject(body, 'une requête PatchOp SCIM');
  checkSchemas(patch, SCIM_SCHEMAS.patchOp, 'pour une requête PATCH');
  const operations = attribute(patch, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0) {
    throw invalid('« Operations » est obligatoire : une liste d’opérations add, replace ou remove.', 'invalidSyntax');
  }
  if (operations.length > MAX_OPERATIONS) throw invalid(`Trop d’opérations : ${MAX_OPERATIONS} au plus par requête.`, 'invalidSyntax');
  const change: ScimChange = {};
  for (const operation of operations) {
    if (!isObject(operation)) throw invalid('Chaque opération doit être un objet {"op", "path", "value"}.', 'invalidSyntax');
    const op = attribute(operation, 'op');
    const kind = typeof op === 'string' ? op.trim().toLowerCase() : '';
    if (kind !== 'add' && kind !== 'replace' && kind !== 'remove') {
      throw invalid(`Opération inconnue « ${String(op)} » : add, replace ou remove est attendu.`, 'invalidSyntax');
    }
    const path = attribute(operation, 'path');
    if (path !== undefined && typeof path !== 'string') throw invalid('« path » doit être un texte.', 'invalidPath');
    const value = attribute(operation, 'value');
    if (kind === 'remove') {
      if (!path) throw invalid('Une opération remove demande un « path ».', 'noTarget');
      const target = path.trim().toLowerCase().replace(USER_URN_PREFIX, '');
      if (target === 'username') throw invalid('« userName » ne peut pas être retiré : c’est l’adresse du membre.', 'mutability');
      if (target === 'active') throw invalid('« active » ne peut pas être retiré : donnez-lui la valeur false.', 'mutability');
      if (target === 'displayname' || target === 'name' || target === 'name.formatted') change.name = null;
      continue;
    }
    if (value === undefined) throw invalid(`L’opération ${kind} demande une « value ».`, 'invalidValue');
    if (path) {
      applyPath(change, path, value);
      continue;
    }
    if (!isObject(value))
      throw invalid(`Sans « path », la « value » d’une opération ${kind} doit être un objet d’attributs.`, 'invalidValue');
    for (const [key, inner] of Object.entries(value)) applyPath(change, key, inner);
  }
  return change;
}

/** A list's filter: the address (`userName eq`, `emails.value eq`) or the id (`id eq`) it asks for. */
export type ScimFilter = { by: 'email' | 'id'; value: string } | null;

const FILTER = /^\s*(userName|emails(?:\.value|\[\s*type\s+eq\s+"work"\s*\]\.value)?|id)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

export function parseFilter(filter: string | undefined): ScimFilter {
  if (filter === undefined || filter.trim() === '') return null;
  const match = FILTER.exec(filter);
  if (!match) {
    throw invalid(
      `Filtre non pris en charge « ${filter.slice(0, 200)} » : seuls userName eq "…", emails.value eq "…" et id eq "…" le sont.`,
      'invalidFilter',
    );
  }
  const [, attributeName = '', quoted = ''] = match;
  const value = quoted.replace(/\\(.)/g, '$1');
  return { by: attributeName.toLowerCase() === 'id' ? 'id' : 'email', value };
}

/** A page: `startIndex` from 1 (1 below it), `count` from 0 to the maximum (the maximum by default). */
export function parsePage(query: { startIndex?: string | undefined; count?: string | undefined }): { startIndex: number; count: number } {
  const integer = (text: string | undefined, field: string, fallback: number) => {
    if (text === undefined || text === '') return fallback;
    if (!/^-?\d{1,9}$/.test(text.trim())) throw invalid(`« ${field} » doit être un nombre entier.`);
    return Number(text);
  };
  return {
    startIndex: Math.max(1, integer(query.startIndex, 'startIndex', 1)),
    count: Math.min(SCIM_MAX_RESULTS, Math.max(0, integer(query.count, 'count', SCIM_MAX_RESULTS))),
  };
}
