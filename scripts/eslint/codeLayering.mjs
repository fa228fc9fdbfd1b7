// An ESLint rule in the spirit of VS Code's `code-layering`: the folders of a source tree are
// stacked in layers, and a file may import only from its own folder group or from layers below
// it. A folder that is in no layer is an error too, so a new folder has to be placed.
import { dirname, resolve, sep } from 'node:path';

/**
 * @typedef {{ root: string, layers: string[][] }} Options
 * `root`: the tree's folder (e.g. `src-main`); `layers`: top to bottom, each a list of groups;
 * a group is a folder (`core/`), a file (`cli.ts`) or a sub-path (`agents/agentManager.ts`), or
 * several joined by `|` (one group: they may import each other). The longest match wins.
 */

const withoutExtension = (path) => path.replace(/\.(ts|tsx|mts|js|mjs)$/, '');

function groupOf(path, groups) {
  let best = null;
  let bestLength = 0;
  for (const group of groups) {
    for (const part of group.split('|')) {
      const matches = part.endsWith('/') ? path.startsWith(part) : withoutExtension(path) === withoutExtension(part);
      if (matches && part.length > bestLength) [best, bestLength] = [group, part.length];
    }
  }
  return best;
}

/** @type {import('eslint').Rule.RuleModule} */
export const codeLayering = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports go down the layers of a source tree, never up or sideways.' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' }, layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } } },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      up: '{{from}} (layer {{fromLayer}}) must not import {{to}} (layer {{toLayer}}): imports go down the layers in eslint.config.js.',
      sideways: '{{from}} and {{to}} are side by side in one layer and must not import each other.',
      unplaced: '{{path}} is in no layer of {{root}}: add its folder to the layers in eslint.config.js.',
    },
  },
  create(context) {
    /** @type {Options} */
    const { root, layers } = context.options[0];
    const groups = layers.flat();
    const layerOf = (group) => layers.findIndex((layer) => layer.includes(group));
    const marker = `${sep}${root}${sep}`;
    const inTree = (absolute) => {
      const at = absolute.lastIndexOf(marker);
      return at < 0
        ? null
        : absolute
            .slice(at + marker.length)
            .split(sep)
            .join('/');
    };
    const filename = context.physicalFilename ?? context.filename;
    const from = inTree(filename);
    if (from === null) return {};
    const fromGroup = groupOf(from, groups);

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = inTree(resolve(dirname(filename), source));
      if (to === null) return;
      const toGroup = groupOf(to, groups);
      if (!fromGroup) return context.report({ node, messageId: 'unplaced', data: { path: from, root } });
      if (!toGroup) return context.report({ node, messageId: 'unplaced', data: { path: to, root } });
      if (toGroup === fromGroup) return;
      const fromLayer = layerOf(fromGroup);
      const toLayer = layerOf(toGroup);
      if (toLayer < fromLayer) context.report({ node, messageId: 'up', data: { from: fromGroup, to: toGroup, fromLayer, toLayer } });
      else if (toLayer === fromLayer) context.report({ node, messageId: 'sideways', data: { from: fromGroup, to: toGroup } });
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};
