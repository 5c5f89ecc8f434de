import type { FastifyInstance } from 'fastify';
import type { ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function makeAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: coerce,
    removeAdditional: false,
  });
  addFormats(ajv);
  return ajv;
}

/** One Ajv error as a sentence naming the field and the rule. */
export function describeAjvError(error: ErrorObject, dataVar: string): string {
  const where = dataVar + error.instancePath.replaceAll('/', '.');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where} has the unknown field "${String(params.additionalProperty)}"`;
    case 'required':
      return `${where} is missing the required field "${String(params.missingProperty)}"`;
    case 'enum':
      return `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${error.message ?? 'is not valid'}`;
  }
}

/**
 * Ajv 2020-12 for the contract's schemas: bodies strictly (no coercion, no stripping, no defaults),
 * path and query coerced from their string form. Errors name the field and the rule.
 */
export function registerValidation(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
  app.setSchemaErrorFormatter((errors, dataVar) => {
    const error = new Error(errors.map((e) => describeAjvError(e as ErrorObject, dataVar)).join('; '));
    return error;
  });
}
