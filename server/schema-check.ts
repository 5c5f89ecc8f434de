import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { contract } from './contract.js';
import { badRequest } from './errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema({ $id: 'contract', components: (contract as { components: unknown }).components });
const compiled = new Map<string, ValidateFunction>();

function describe(error: ErrorObject, label: string): string {
  const where = label + error.instancePath.replaceAll('/', '.');
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `${where} has the unknown field "${String(params.additionalProperty)}"`;
  if (error.keyword === 'required') return `${where} is missing the required field "${String(params.missingProperty)}"`;
  return `${where} ${error.message ?? 'is not valid'}`;
}

/**
 * Checks a value built inside a handler (e.g. the result of a JSON patch) against a schema of the
 * contract, with the same rules and messages as request validation.
 */
export function assertMatchesSchema(schemaName: string, value: unknown, label: string): void {
  let validate = compiled.get(schemaName);
  if (!validate) {
    validate = ajv.compile({ $ref: `contract#/components/schemas/${schemaName}` });
    compiled.set(schemaName, validate);
  }
  if (!validate(value)) throw badRequest(describe(validate.errors![0]!, label));
}
