import type { z } from 'zod';
import type { PathParams, Route } from './define.ts';
import type { endpoints } from './index.ts';

/**
 * The request and response types of a call, read from the catalogue's schemas by the types alone:
 * a client importing these with `import type` (the web app) carries no zod and no schema, and
 * still cannot send a body the endpoint would refuse, nor read a field its answer does not have.
 * An endpoint is found by its method and path, which are unique (`routes.ts` gives both).
 */

type Catalogue = typeof endpoints;

/** Every endpoint of the catalogue, as one union. */
type AnyEndpoint = { [Area in keyof Catalogue]: Catalogue[Area][keyof Catalogue[Area]] }[keyof Catalogue];

/** The catalogue's endpoint with the method and path of `R`. */
export type CatalogueEndpoint<R extends Pick<Route, 'method' | 'path'>> = Extract<
  AnyEndpoint,
  { readonly method: R['method']; readonly path: R['path'] }
>;

type SchemasOf<R extends Pick<Route, 'method' | 'path'>> = CatalogueEndpoint<R> extends { readonly schema: infer S } ? S : never;

type SuccessStatus = 200 | 201 | 202 | 204;

type SuccessBodies<Responses> = {
  [Status in keyof Responses & SuccessStatus]: Status extends 204
    ? undefined
    : Responses[Status] extends z.ZodType
      ? z.output<Responses[Status]>
      : unknown;
}[keyof Responses & SuccessStatus];

type OrUnknown<T> = [T] extends [never] ? unknown : T;

/** What a successful call answers: the parsed JSON of its 2xx schema, undefined for a 204. */
export type ResponseOf<R extends Pick<Route, 'method' | 'path'>> = OrUnknown<
  SchemasOf<R> extends { readonly response: infer Responses } ? SuccessBodies<Responses> : never
>;

/** The JSON body an endpoint takes, as the client writes it; undefined when it takes none. */
export type BodyOf<R extends Pick<Route, 'method' | 'path'>> =
  SchemasOf<R> extends { readonly body: infer Body extends z.ZodType } ? z.input<Body> : undefined;

/** The query an endpoint reads, as the client writes it; undefined when it reads none. */
export type QueryOf<R extends Pick<Route, 'method' | 'path'>> =
  SchemasOf<R> extends { readonly querystring: infer Query extends z.ZodType } ? z.input<Query> : undefined;

/**
 * What a call names besides its endpoint: the path's parameters (required when it has some), its
 * query (required when one of its fields is), its body (required when the endpoint's body cannot
 * be left out), and an abort signal.
 */
export type CallOptions<R extends Pick<Route, 'method' | 'path'>> = ([keyof PathParams<R['path']>] extends [never]
  ? { params?: PathParams<R['path']> }
  : { params: PathParams<R['path']> }) &
  (undefined extends QueryOf<R>
    ? { query?: QueryOf<R> | undefined }
    : Record<never, never> extends QueryOf<R>
      ? { query?: QueryOf<R> | undefined }
      : { query: QueryOf<R> }) &
  (undefined extends BodyOf<R> ? { body?: BodyOf<R> | undefined } : { body: BodyOf<R> }) & { signal?: AbortSignal | undefined };

/** The arguments after the endpoint: none needed when every option may be left out. */
export type CallArguments<R extends Pick<Route, 'method' | 'path'>> =
  Record<never, never> extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];
