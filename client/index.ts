import createOpenApiClient, { type Client, type ClientOptions, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '../generated/api.js';

export type { paths, components, operations } from '../generated/api.js';

// Written here rather than imported from openapi-typescript-helpers, which is openapi-fetch's dependency, not ours.
type MediaType = `${string}/${string}`;
type PathsWithMethod<Paths, M extends string> = { [P in keyof Paths]: Paths[P] extends { [K in M]: any } ? P : never }[keyof Paths];

type Primitive = string | number | boolean | bigint | symbol | null | undefined;
/** Every key of every member of a union (`keyof` of a union gives only the common ones). */
type KeysOf<S> = S extends unknown ? keyof S : never;
type ValueAt<S, K> = S extends unknown ? (K extends keyof S ? S[K] : never) : never;
type ElementOf<S> = S extends readonly (infer E)[] ? E : never;

/**
 * `T` with every key that `Shape` does not declare turned into `never`, at every depth: an object literal
 * with an unknown field no longer fits. (openapi-fetch infers the request from the argument, so TypeScript's
 * excess-property check never runs on a body: the server would answer 400 to what `tsc` let through.)
 */
export type Exact<Shape, T> = T extends Primitive | Date | Blob
  ? T
  : T extends unknown[]
    ? Exact<ElementOf<NonNullable<Shape>>, T[number]>[]
    : T extends readonly unknown[]
      ? readonly Exact<ElementOf<NonNullable<Shape>>, T[number]>[]
      : T extends object
        ? { [K in keyof T]: K extends KeysOf<NonNullable<Shape>> ? Exact<ValueAt<NonNullable<Shape>, K>, T[K]> : never }
        : T;

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
type AllowedBody<Allowed> = Allowed extends { body?: infer B } ? B : never;
/** The request options as given, with the body held to exactly what the operation declares. */
type ExactInit<Init, Allowed> = Init extends { body: infer B } ? Init & { body: Exact<AllowedBody<NonNullable<Allowed>>, B> } : Init;
/** As openapi-fetch's own: the options argument is optional when nothing in it is required. */
type InitArgs<Init, Allowed> =
  RequiredKeys<Init> extends never ? [(ExactInit<Init, Allowed> & { [key: string]: unknown })?] : [ExactInit<Init, Allowed> & { [key: string]: unknown }];

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The operation at a path and method (the shape openapi-fetch's response types need). */
type OperationOf<Path extends keyof paths, M extends Method> = paths[Path][M] extends infer O extends Record<string | number, any> ? O : never;

/** openapi-fetch's method signature (its `ClientMethod`), with exact bodies. */
type StrictMethod<M extends Method> = <Path extends PathsWithMethod<paths, M>, Init extends MaybeOptionalInit<paths[Path], M>>(
  url: Path,
  ...init: InitArgs<Init, MaybeOptionalInit<paths[Path], M>>
) => Promise<FetchResponse<OperationOf<Path, M>, Init, MediaType>>;

/** A typed client of the whole API: paths, parameters, bodies (exactly) and answers checked against the contract. */
export type ServiceClient = Omit<Client<paths>, 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH'> & {
  GET: StrictMethod<'get'>;
  PUT: StrictMethod<'put'>;
  POST: StrictMethod<'post'>;
  DELETE: StrictMethod<'delete'>;
  PATCH: StrictMethod<'patch'>;
};

export interface ServiceClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** An API token; sent as the Authorization header. */
  token?: string;
}

/** A typed client of the whole API: paths, parameters, bodies and answers checked against the contract. */
export function createClient(baseUrl: string, options: ServiceClientOptions = {}): ServiceClient {
  const { token, headers, ...rest } = options;
  return createOpenApiClient<paths>({
    baseUrl,
    headers: { ...(token ? { authorization: token } : {}), ...(headers as Record<string, string> | undefined) },
    ...rest,
  }) as unknown as ServiceClient;
}
