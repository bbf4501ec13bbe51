import type { Role, UiNode } from '../../shared/ui-node';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a over the UTF-16 code units of `text`. */
export function fnv1a(text: string): number {
  return fnvMore(FNV_OFFSET, text) >>> 0;
}

/**
 * FNV-1a carried on over `text`: hashing the parts of a key one after the other gives the hash
 * of their concatenation, with no key string made (ids hash two keys for each of a read's nodes).
 */
function fnvMore(from: number, text: string): number {
  let hash = from;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash;
}

/**
 * FNV-1a carried on over `value` (a non-negative integer) written in `radix` (10 or 36, lowercase
 * letters), most significant digit first: the hash of `value.toString(radix)` without the string,
 * which ids would otherwise make twice for each node of a read.
 */
function fnvDigits(from: number, value: number, radix: number): number {
  const rest = Math.floor(value / radix);
  const hash = rest > 0 ? fnvDigits(from, rest, radix) : from;
  const digit = value - rest * radix;
  return Math.imul(hash ^ (digit < 10 ? 48 + digit : 87 + digit), FNV_PRIME);
}

/** FNV-1a carried on over one NUL, the keys' separator. */
function fnvNul(from: number): number {
  return Math.imul(from, FNV_PRIME);
}

/**
 * Ids are this many lowercase letters: 11.9 million values. Letters alone cost a model
 * 2.8 tokens per id in o200k_base, where base36's mix of digits and letters costs 3.6 and a
 * full 32-bit number 5–6 (measured over 3,000 ids); ids are a third of the compact text.
 */
export const ID_LENGTH = 5;
const ID_LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const ID_SPACE = ID_LETTERS.length ** ID_LENGTH;

const A = 'a'.charCodeAt(0);

/** `value` in base 26 as ID_LENGTH letters, most significant first; one string made, not one per letter. */
function letters(value: number): string {
  const base = ID_LETTERS.length;
  const e = value % base;
  const d = Math.floor(value / base) % base;
  const c = Math.floor(value / base ** 2) % base;
  const b = Math.floor(value / base ** 3) % base;
  const a = Math.floor(value / base ** 4) % base;
  return String.fromCharCode(A + a, A + b, A + c, A + d, A + e);
}

/**
 * A node's id is a hash of its slot (where it sits, by structure only), its role and its
 * name. The slot is the chain of roles and same-role indices from the root: ancestors'
 * names never take part, because windows, documents and tabs are renamed all the time (a
 * title gains a `*` on the first keystroke) and that must not renumber their contents.
 * The NUL separator keeps ("ab","c") and ("a","bc") apart. Always ID_LENGTH characters.
 */
export function nodeId(parentSlot: string, role: Role, name: string, roleIndex: number, salt = 0): string {
  return idAfter(fnvMore(FNV_OFFSET, parentSlot), role, name, roleIndex, salt);
}

/** nodeId from the hash of the parent slot (`fnvMore(FNV_OFFSET, parentSlot)`), which all of a parent's children share. */
function idAfter(slotHash: number, role: Role, name: string, roleIndex: number, salt: number): string {
  // The hash of `${parentSlot}\0${role}\0${name}\0${roleIndex}` (and `\0${salt}` when salted), part by part.
  let hash = fnvMore(fnvNul(slotHash), role);
  hash = fnvMore(fnvNul(hash), name);
  hash = fnvDigits(fnvNul(hash), roleIndex, 10);
  if (salt !== 0) hash = fnvDigits(fnvNul(hash), salt, 10);
  return letters((hash >>> 0) % ID_SPACE);
}

/**
 * A node's slot: its parent's slot, its role and its index among same-role siblings. Two
 * nodes in one tree never share a slot (up to a 32-bit hash), so names alone tell apart
 * nothing that the slot does not already. The root's parent slot is ''.
 */
export function slotKey(parentSlot: string, role: Role, roleIndex: number): string {
  return slotNumber(fnvMore(FNV_OFFSET, parentSlot), role, roleIndex).toString(36);
}

/** The slot key as its number (slotKey's string in base 36), from the hash of the parent slot. */
function slotNumber(slotHash: number, role: Role, roleIndex: number): number {
  const hash = fnvMore(fnvNul(slotHash), role);
  return fnvDigits(fnvNul(hash), roleIndex, 10) >>> 0;
}

/** A node as a backend reports it: a UiNode without ids, plus an opaque handle to act on it. */
export interface RawNode<Ref = unknown> extends Omit<UiNode, 'id' | 'children'> {
  ref: Ref;
  children?: RawNode<Ref>[];
}

export interface BuiltTree<Ref = unknown> {
  root: UiNode;
  /** Platform handles by node id, kept out of the UiNode so the tree stays plain JSON. */
  refs: Map<string, Ref>;
  /** Whether some id was re-hashed with a salt: those ids, and their descendants', depend on the rest of the tree. */
  salted: boolean;
}

/**
 * Gives every node its stable id. A subtree re-read on its own passes the slot it sits in
 * (its parent's slot and its index among same-role siblings) and gets the ids the whole tree
 * would give it, as long as neither read salted anything (`salted`).
 * Five letters collide about once in 24 trees of 1,000 nodes; the node met second
 * (in document order) is re-hashed with a salt, so ids stay unique within a tree and still
 * deterministic. The salted node's id then depends on the node it collided with, which a
 * subtree read alone may not contain; its descendants' ids do not, since they hash the slot.
 */
export function buildTree<Ref>(raw: RawNode<Ref>, slot: { parentSlot: string; roleIndex: number } = { parentSlot: '', roleIndex: 0 }): BuiltTree<Ref> {
  const refs = new Map<string, Ref>();
  let salted = false;
  // A parent's slot is hashed once for all its children (and for its own slot's key), not once per child and again per key.
  const visit = (node: RawNode<Ref>, parentSlotHash: number, roleIndex: number): UiNode => {
    let salt = 0;
    let id = idAfter(parentSlotHash, node.role, node.name, roleIndex, 0);
    while (refs.has(id)) {
      salt += 1;
      id = idAfter(parentSlotHash, node.role, node.name, roleIndex, salt);
    }
    if (salt > 0) salted = true;
    refs.set(id, node.ref);
    // The node's fields after its id, in their order, without ref and children: a plain copy
    // rather than a rest object spread again (two objects made per node).
    const built = { id } as UiNode & Record<string, unknown>;
    for (const key in node) if (key !== 'ref' && key !== 'children') built[key] = node[key as keyof RawNode<Ref>];
    const rawChildren = node.children;
    if (rawChildren !== undefined) {
      const ownSlotHash = fnvDigits(FNV_OFFSET, slotNumber(parentSlotHash, node.role, roleIndex), 36);
      const seen = new Map<Role, number>();
      built.children = rawChildren.map((child) => {
        const index = seen.get(child.role) ?? 0;
        seen.set(child.role, index + 1);
        return visit(child, ownSlotHash, index);
      });
    }
    return built;
  };
  const root = visit(raw, fnvMore(FNV_OFFSET, slot.parentSlot), slot.roleIndex);
  return { root, refs, salted };
}
