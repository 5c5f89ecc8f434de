// The contract as tests read it: its schemas, `$ref`s followed, and a validator for any of them.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

export type Schema = Record<string, any>;

export interface ContractOperation {
  parameters?: Schema[];
  requestBody?: { content?: Record<string, { schema: Schema }> };
}

export const contract = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, ContractOperation> & { parameters?: Schema[] }>;
  components: Record<string, Record<string, Schema>>;
};

/** Follows `$ref`s into the contract's components. */
export function resolve(schema: Schema): Schema {
  let current = schema;
  while (current.$ref) {
    const [, kind, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(String(current.$ref))!;
    current = contract.components[kind!]![name!]!;
  }
  return current;
}

/** A schema with its `allOf` parts merged in. */
export function flatten(input: Schema): Schema {
  const schema = resolve(input);
  if (!schema.allOf) return schema;
  const { allOf, ...rest } = schema;
  return Object.assign({}, ...allOf.map((part: Schema) => flatten(part)), rest);
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false }));
ajv.addSchema({ $id: 'contract', components: contract.components });

/** A validator of the schema (a `$ref` into the contract or an inline schema), by RFC 3339 formats. */
export const validatorOf = (schema: Schema) => ajv.compile(schema.$ref ? { $ref: `contract${schema.$ref}` } : schema);
