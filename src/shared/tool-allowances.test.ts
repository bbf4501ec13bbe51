import { describe, expect, it } from 'vitest';
import { MAX_TOOL_ALLOWANCES, TOOL_ALLOWANCES_SCHEMA, allowanceFor, allows, withAllowance } from './tool-allowances';

const write = { server: 'files', tool: 'write_file', app: 'gedit' };

describe('tool allowances', () => {
  it('turns each answer into the allowance it grants, or none', () => {
    expect(allowanceFor('allow_once', write)).toBeUndefined();
    expect(allowanceFor('deny', write)).toBeUndefined();
    expect(allowanceFor('allow_app', write)).toEqual({ server: 'files', tool: 'write_file', app: 'gedit' });
    expect(allowanceFor('allow_always', write)).toEqual({ server: 'files', tool: 'write_file' });
    expect(allowanceFor('allow_server_app', write)).toEqual({ server: 'files', app: 'gedit' });
    expect(allowanceFor('allow_server_always', write)).toEqual({ server: 'files' });
    // "For this app" with no app known cannot be stored: it lasts the conversation.
    expect(allowanceFor('allow_app', { server: 'files', tool: 'write_file' })).toBeUndefined();
  });

  it('matches a tool or its whole server, in one app or all', () => {
    expect(allows([{ server: 'files', tool: 'write_file' }], write)).toBe(true);
    expect(allows([{ server: 'files', tool: 'write_file' }], { ...write, tool: 'delete_file' })).toBe(false);
    expect(allows([{ server: 'files', app: 'gedit' }], { ...write, tool: 'delete_file' })).toBe(true);
    expect(allows([{ server: 'files', app: 'gedit' }], { ...write, app: 'mousepad' })).toBe(false);
    expect(allows([{ server: 'files', app: 'gedit' }], { server: 'files', tool: 'write_file' })).toBe(false);
    expect(allows([{ server: 'file' }], write)).toBe(false);
    expect(allows([], write)).toBe(false);
  });

  it('stores a repeat once and keeps the newest when the list is full', () => {
    expect(withAllowance([{ server: 'files' }], { server: 'files' })).toEqual([{ server: 'files' }]);
    const full = Array.from({ length: MAX_TOOL_ALLOWANCES }, (_unused, index) => ({ server: `s${index}` }));
    const added = withAllowance(full, { server: 'new' });
    expect(added).toHaveLength(MAX_TOOL_ALLOWANCES);
    expect(added.at(-1)).toEqual({ server: 'new' });
    expect(added[0]).toEqual({ server: 's1' });
  });

  it('validates what crosses a process boundary, naming the field', () => {
    expect(TOOL_ALLOWANCES_SCHEMA.safeParse([{ server: 'files', tool: 'x' }]).success).toBe(true);
    const bad = TOOL_ALLOWANCES_SCHEMA.safeParse([{ server: '', extra: 1 }]);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual(expect.arrayContaining(['0.server']));
  });
});
