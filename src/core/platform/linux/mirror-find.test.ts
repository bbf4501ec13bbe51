import { describe, expect, it } from 'vitest';
import type { Role } from '../../../shared/ui-node';
import { buildTree, type RawNode } from '../../ui/ids';
import { walk } from '../../ui/tree-index';
import { mirrorFind } from './mirror-find';

const node = (role: Role, name: string, children?: RawNode[]): RawNode => ({
  ref: name,
  role,
  platformRole: `atspi:${role}`,
  name,
  states: { enabled: true, focused: false },
  actions: [],
  ...(children === undefined ? {} : { children }),
});

/** A page: rows of a cell and a button that share names, as a generated report's do, under a document. */
function page(rows: number): RawNode {
  const cells = Array.from({ length: rows }, (_unused, at) => node('row', `Row ${at}`, [node('cell', `Act ${at}`), node('button', `Act ${at}`)]));
  return node('application', 'app', [node('window', 'Window', [node('document', 'Doc', [node('heading', 'Report'), node('table', 'T', cells)])])]);
}

const idOf = (root: RawNode, role: Role, name: string): string | undefined =>
  [...walk(buildTree(root).root)].find((each) => each.role === role && each.name === name)?.id;

describe('mirrorFind', () => {
  it('gives a match the id the whole tree gives it', () => {
    const root = page(40);
    const [found] = mirrorFind(root, { roles: new Set<Role>(['button']), name: 'Act 37', limit: 5 }) ?? [];
    expect(found && buildTree(found.node, found.slot).root.id).toBe(idOf(root, 'button', 'Act 37'));
    expect(found?.node.children).toBeUndefined();
  });

  it('looks for a name alone among the roles a model acts on first, as Collection does', () => {
    const root = page(5);
    const found = mirrorFind(root, { name: 'act 3', limit: 5 }) ?? [];
    expect(found.map(({ node: each }) => each.role)).toEqual(['button']);
    // Not among them: every role.
    expect(mirrorFind(root, { name: 'T', limit: 5 })?.map(({ node: each }) => each.role)).toEqual(['table']);
  });

  it('looks for a name no actionable node has among the headings before every role, as Collection does', () => {
    // The document is named as its heading and comes first: the heading answers.
    const root = node('application', 'app', [node('document', 'Report', [node('heading', 'Report'), node('button', 'Go')])]);
    expect(mirrorFind(root, { name: 'Report', limit: 5 })?.map(({ node: each }) => each.role)).toEqual(['heading']);
  });

  it('ranks the exact spelling first and keeps document order among equals', () => {
    const root = node('application', 'app', [node('button', 'save'), node('button', 'Save'), node('button', 'SAVE ')]);
    expect(mirrorFind(root, { name: 'Save', limit: 5 })?.map(({ node: each }) => each.name)).toEqual(['Save', 'save', 'SAVE ']);
  });

  it('leaves near matches, misses and cut trees to the tree search', () => {
    const root = page(5);
    expect(mirrorFind(root, { name: 'Act', limit: 5 })).toBeUndefined();
    expect(mirrorFind(root, { name: 'Nowhere', limit: 5 })).toBeUndefined();
    expect(mirrorFind({ ...root, cut: { reason: 'max-nodes', limit: 10, nodes: 10 } }, { name: 'Act 3', limit: 5 })).toBeUndefined();
  });

  it('names the first nodes of a role in document order when no name is asked, never the root', () => {
    const root = page(5);
    expect(mirrorFind(root, { roles: new Set<Role>(['cell']), limit: 2 })?.map(({ node: each }) => each.name)).toEqual(['Act 0', 'Act 1']);
    expect(mirrorFind(root, { roles: new Set<Role>(['application']), limit: 2 })).toBeUndefined();
  });
});
