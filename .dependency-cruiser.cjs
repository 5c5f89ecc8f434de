// The floors (ARCHITECTURE.md): each imports only from the floors below it; a handler file never imports another
// (handlers/ is not among its own floors). `npm run check:layout`, run by .ci/run.
const floors = {
  app: ['app', 'handlers', 'domain', 'kernel', 'shared', 'db', 'generated'],
  handlers: ['domain', 'kernel', 'shared', 'db', 'generated'],
  domain: ['domain', 'kernel', 'shared', 'db', 'generated'],
  kernel: ['kernel', 'shared', 'db', 'generated'],
  shared: ['shared', 'generated'],
  db: ['db', 'generated'],
  generated: ['generated'],
  client: ['client', 'generated'],
  ui: ['ui', 'client', 'shared', 'generated'],
};
const alternatives = (names) => `^(${names.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle makes two modules one; cut it by moving what both need one floor down.',
      from: {},
      to: { circular: true },
    },
    ...Object.entries(floors).map(([floor, allowed]) => ({
      name: `${floor}-imports-below`,
      severity: 'error',
      comment: `${floor}/ imports only from ${allowed.join(', ')} (and packages).`,
      from: { path: `^${floor}/` },
      to: {
        path: '^(app|handlers|domain|kernel|shared|db|generated|ui|client|tests|scripts)/',
        pathNot: alternatives(allowed),
      },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.stryker-tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'], conditionNames: ['flag-service-source', 'import', 'node', 'default'] },
  },
};
