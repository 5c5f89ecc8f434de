import type { ValidateFunction } from 'ajv/dist/2020.js';
import { contract } from './contract.js';
import { badRequest } from './errors.js';
import { describeAjvError, makeAjv } from './validation.js';

let ajv: ReturnType<typeof makeAjv> | undefined;
const compiled = new Map<string, ValidateFunction>();

/** Made on first use, not at start: adding the contract's components costs ~0.1 s that most processes never need. */
function contractAjv() {
  if (!ajv) {
    ajv = makeAjv(false);
    ajv.addSchema({ $id: 'contract', components: (contract as { components: unknown }).components });
  }
  return ajv;
}

/**
 * Checks a value built inside a handler (e.g. the result of a JSON patch) against a schema of the
 * contract, with the same rules and messages as request validation.
 */
export function assertMatchesSchema(schemaName: string, value: unknown, label: string): void {
  let validate = compiled.get(schemaName);
  if (!validate) {
    validate = contractAjv().compile({ $ref: `contract#/components/schemas/${schemaName}` });
    compiled.set(schemaName, validate);
  }
  if (!validate(value)) throw badRequest(describeAjvError(validate.errors![0]!, label));
}
