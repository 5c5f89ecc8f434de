import type { FastifyInstance } from 'fastify';
import type { ErrorObject, ValidateFunction } from 'ajv';
import fastJsonStringify from 'fast-json-stringify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';

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
  ajv.addFormat('date-time', { type: 'string', validate: isRepresentableDateTime });
  return ajv;
}

const rfc3339DateTime = fullFormats['date-time'] as { validate: (value: string) => boolean };

/** RFC 3339 and readable by `Date`: a leap second or an hours-only offset would pass RFC 3339 and fail at the database. */
const isRepresentableDateTime = (value: string) => rfc3339DateTime.validate(value) && !Number.isNaN(Date.parse(value));

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
 * path and query coerced from their string form. Errors name the field and the rule. Responses are
 * serialized by fast-json-stringify from their schema, so a field the contract does not declare never
 * leaves the service.
 */
export function registerValidation(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  // Compiled on first use: most of the contract's schemas are never needed by a given process.
  app.setValidatorCompiler(({ schema, httpPart }) => {
    let validate: ValidateFunction | undefined;
    // fastify reads the errors from the function it was given, so they are copied onto it.
    const check = (data: unknown) => {
      validate ??= (httpPart === 'body' ? strict : coercing).compile(schema);
      const valid = validate(data) as boolean;
      check.errors = validate.errors;
      return valid;
    };
    check.errors = null as ValidateFunction['errors'];
    return check;
  });
  app.setSerializerCompiler(({ schema }) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data: unknown) => (serialize ??= fastJsonStringify(schema as never) as (data: unknown) => string)(data);
  });
  app.setSchemaErrorFormatter((errors, dataVar) => {
    const error = new Error(errors.map((e) => describeAjvError(e as ErrorObject, dataVar)).join('; '));
    return error;
  });
}
