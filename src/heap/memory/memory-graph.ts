/**
 * What code outside the heap reads of a memory analysis: the analysis and its object graph, the
 * dump's object ids, retained sizes, who refers to whom, and the top of the dominator tree. The
 * algorithms live in heap/graph/ (format-neutral); outside src/heap they are reached only through
 * this door (a lint pattern in eslint.config.js says so), so the graph's files can change shape
 * without the rules, the commands or the model following.
 */
export { retainedOf } from '../graph/dominators.js';
export { type InboundIndex, inboundIndex, indexesOfIds, referrerAmong } from '../graph/graph-queries.js';
export type { MemoryAnalysis } from '../graph/heap-memory.js';
export { idOf, idText, parseObjectId } from '../graph/object-graph.js';
export { retainerTree } from '../graph/retainer-tree.js';
