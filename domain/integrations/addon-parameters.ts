// An integration's parameters checked against its provider before they are stored.
import type { components } from '../../generated/api.js';
import type { IntegrationConfig } from '../../kernel/config.js';
import { badRequest } from '../../kernel/errors.js';
import { templateProblem } from './bounded-template.js';
import { headerValueProblem, parseCustomHeaders } from './custom-headers.js';
import { checkIntegrationUrl } from './url-safety.js';

type AddonProvider = components['schemas']['AddonProvider'];
type SentParameters = components['schemas']['AddonParameters'];

/** How sensitive parameters are answered; sent back on update, it keeps the stored value. */
export const MASK = '*****';
/** The parameters render.ts sends as header values. */
const SENT_AS_HEADER = new Set(['authorization', 'contentType', 'apiKey']);

function checkFormat(name: string, value: string) {
  if (name === 'customHeaders') {
    const parsed = parseCustomHeaders(value);
    if ('problem' in parsed) {
      throw badRequest(`parameters.customHeaders: must be a JSON object of header names to string values, each a header the sender may send, but ${parsed.problem}.`);
    }
  }
  const headerProblem = SENT_AS_HEADER.has(name) ? headerValueProblem(value) : undefined;
  if (headerProblem) throw badRequest(`parameters.${name}: it is sent as an HTTP header, but ${headerProblem}.`);
  if (name === 'bodyTemplate') {
    let problem: string | undefined;
    try {
      problem = templateProblem(value);
    } catch (error) {
      throw badRequest(`parameters.bodyTemplate: not a Mustache template: ${error instanceof Error ? error.message : String(error)}.`);
    }
    if (problem) throw badRequest(`parameters.bodyTemplate: ${problem}`);
  }
}

/**
 * The parameters to store: values as strings, empty ones dropped, a masked sensitive value replaced by the stored
 * one; 400 for a parameter the provider does not have, a required one missing, a URL that is not http(s) or
 * points inside the network, headers that are not a JSON object, a template that does not parse.
 */
export async function checkParameters(
  provider: AddonProvider,
  sent: SentParameters,
  stored: Record<string, string>,
  config: IntegrationConfig,
): Promise<Record<string, string>> {
  const definitions = new Map(provider.parameters.map((p) => [p.name, p]));
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(sent)) {
    const definition = definitions.get(name);
    if (!definition) {
      throw badRequest(`parameters.${name}: the ${provider.name} provider has no such parameter; it has ${[...definitions.keys()].join(', ')}.`);
    }
    const value = String(raw);
    if (definition.sensitive && value === MASK) {
      if (stored[name] !== undefined) result[name] = stored[name];
      continue;
    }
    if (value.trim() === '') continue;
    checkFormat(name, value);
    if (definition.type === 'url' && value !== stored[name]) {
      const problem = await checkIntegrationUrl(value, config);
      if (problem) throw badRequest(`parameters.${name}: ${problem}`);
    }
    result[name] = value;
  }
  const missing = provider.parameters.filter((p) => p.required && result[p.name] === undefined).map((p) => p.name);
  if (missing.length > 0) throw badRequest(`parameters: the ${provider.name} provider needs ${missing.join(', ')}; missing required parameters: ${missing.join(', ')}.`);
  return result;
}
