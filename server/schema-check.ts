import type { ValidateFunction } from 'ajv/dist/2020.js';
import { contract } from './contract.js';
import { badRequest } from './errors.js';
import { describeAjvError, makeAjv } from './validation.js';

const ajv = makeAjv(false);
ajv.addSchema({ $id: 'contract', components: (contract as { components: unknown }).components });
const compiled = new Map<string, ValidateFunction>();

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
  if (!validate(value)) throw badRequest(describeAjvError(validate.errors![0]!, label));
}
