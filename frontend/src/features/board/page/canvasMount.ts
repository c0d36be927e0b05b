/**
 * Which canvas the page mounts. The canvas feature's <BoardCanvas> replaces the stand-in as soon as
 * its component file is committed (change this one line).
 */
export { BoardCanvas } from '../canvas/index.ts';
export type { BoardCanvasHandle } from '../canvas/types.ts';
