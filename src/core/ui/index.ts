export { buildTree, fnv1a, nodeId, type BuiltTree, type RawNode } from './ids';
export { diffNodes, subtreeDigest } from './diff';
export { findNodes, levenshtein, textScore, type Match, type NodeQuery } from './query';
export { redactSecrets } from './redact';
export { formatNode, serializeTree, type SerializeOptions } from './serialize';
export { countNodes, findById, indexTree, shallow, walk, type IndexedNode } from './tree-index';
export { estimateTokens } from './token-estimate';
