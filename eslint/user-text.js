// @ts-check
/**
 * Words main shows people (the tray, dialogs, notifications, notices, the hotkey's error) come
 * from the catalogs. eslint-plugin-i18next covers JSX; this covers main's user-facing calls:
 * a string or template literal with letters in one of the `properties` of an object literal,
 * or passed to one of the `callees`, is refused. Log lines and error codes are not user-facing.
 */

/** @param {any} node @returns {boolean} */
function hasWords(node) {
  if (node.type === 'Literal') return typeof node.value === 'string' && /\p{L}/u.test(node.value);
  if (node.type === 'TemplateLiteral') return node.quasis.some((/** @type {any} */ quasi) => /\p{L}/u.test(quasi.value.cooked ?? ''));
  if (node.type === 'ConditionalExpression') return hasWords(node.consequent) || hasWords(node.alternate);
  if (node.type === 'LogicalExpression') return hasWords(node.left) || hasWords(node.right);
  if (node.type === 'BinaryExpression' && node.operator === '+') return hasWords(node.left) || hasWords(node.right);
  return false;
}

/** @param {any} callee */
function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const userTextRule = {
  meta: {
    type: 'problem',
    docs: { description: 'User-facing text in main comes from the i18n catalogs' },
    schema: [
      {
        type: 'object',
        properties: {
          properties: { type: 'array', items: { type: 'string' } },
          callees: { type: 'object', additionalProperties: { type: 'array', items: { type: 'integer' } } },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const options = context.options[0] ?? {};
    const properties = new Set(options.properties ?? []);
    /** @type {Map<string, number[]>} */
    const callees = new Map(Object.entries(options.callees ?? {}));
    /** @param {any} node */
    const report = (node) => context.report({ node, message: 'User-facing text must come from the i18n catalogs (t(...)), not a literal.' });
    return {
      Property(node) {
        const key = node.key.type === 'Identifier' ? node.key.name : node.key.type === 'Literal' ? String(node.key.value) : undefined;
        if (key !== undefined && properties.has(key) && hasWords(node.value)) report(node.value);
      },
      CallExpression(node) {
        const name = calleeName(node.callee);
        const positions = name === undefined ? undefined : callees.get(name);
        if (positions === undefined) return;
        for (const position of positions) {
          const argument = node.arguments[position];
          if (argument !== undefined && hasWords(argument)) report(argument);
        }
      },
    };
  },
};

export default { rules: { 'user-text': userTextRule } };
