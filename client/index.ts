import createOpenApiClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../generated/api.js';

export type { paths, components, operations } from '../generated/api.js';
export type ServiceClient = Client<paths>;

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
  });
}
