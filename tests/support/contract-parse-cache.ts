// The service registers its routes through fastify-openapi-glue, which validates and parses the contract at every
// registration (about 0.2 s of CPU, a quarter of an app's start). A process of the service does it once; a test worker
// builds hundreds of apps from the same contract, so here the glue's parse of each distinct contract (the service's,
// the edge node's: told apart by their operations) is kept for the worker. What the parse answers is the same.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Parse = (specification: unknown, options: unknown) => Promise<unknown>;

const glueEntry = createRequire(import.meta.url).resolve('fastify-openapi-glue');
// Not among the package's exports: imported by its file, the very module the glue's own index.js imports.
const { Parser } = (await import(pathToFileURL(path.join(path.dirname(glueEntry), 'lib', 'Parser.js')).href)) as { Parser: { prototype: { parse: Parse } } };

const operationsOf = (specification: unknown) =>
  JSON.stringify(Object.entries((specification as { paths: Record<string, object> }).paths).map(([route, item]) => [route, Object.keys(item)]));

const kept = new Map<string, Promise<unknown>>();
const parse = Parser.prototype.parse;
if (!(parse as { kept?: true }).kept) {
  Parser.prototype.parse = Object.assign(
    function (this: unknown, specification: unknown, options: unknown) {
      const key = `${JSON.stringify(options)} ${operationsOf(specification)}`;
      let parsed = kept.get(key);
      if (!parsed) kept.set(key, (parsed = parse.call(this, specification, options)));
      return parsed;
    },
    { kept: true as const },
  );
}
