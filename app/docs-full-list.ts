/**
 * The body of a Swagger UI plugin that lists every operation. Swagger UI 5.34 (in @fastify/swagger-ui) renders the
 * list virtually once it has 150 rows or more (tags and operations; the contract has more): only the rows near the
 * viewport exist, so the browser's find, printing and scrolling past them miss the rest. This is its own plain list,
 * which it still uses below 150 rows. Plain JavaScript for the browser: @fastify/swagger-ui writes the plugin into
 * the page by its source text, and compiled TypeScript may call helpers that the page does not have.
 */
const PLUGIN_BODY = `
  const h = system.React.createElement;
  const operations = (props) => {
    const { specSelectors, getComponent, oas3Selectors, layoutSelectors, layoutActions, getConfigs } = props;
    const tagged = specSelectors.taggedOperations();
    if (tagged.size === 0) return h('h3', null, 'No operations defined in spec!');
    const methods = specSelectors.validOperationMethods();
    const OperationTag = getComponent('OperationTag');
    const OperationContainer = getComponent('OperationContainer', true);
    const tagProps = { oas3Selectors, layoutSelectors, layoutActions, getConfigs, getComponent, specUrl: specSelectors.url() };
    const rows = (tag, tagObj) =>
      tagObj
        .get('operations')
        .filter((op) => methods.indexOf(op.get('method')) !== -1)
        .map((op) => h(OperationContainer, { key: op.get('path') + '-' + op.get('method'), specPath: op.get('specPath'), op, path: op.get('path'), method: op.get('method'), tag }))
        .toArray();
    return h('div', null, tagged
      .map((tagObj, tag) => h(OperationTag, { key: 'operation-' + tag, tagObj, tag, ...tagProps }, h('div', { className: 'operation-tag-content' }, rows(tag, tagObj))))
      .valueSeq()
      .toArray());
  };
  return { components: { operations } };
`;

/** The plugin, as a function whose source text is PLUGIN_BODY (never called on the server). */
export const fullOperationList = new Function('system', PLUGIN_BODY);
