/**
 * Undo and redo (§9): Y.UndoManager over the objects and arrows maps, tracking only this user's
 * origin, so a remote change is never undone. Every local transaction is its own command (no
 * time-based merging: two quick clicks are two steps), at most 50 kept; a new command clears redo
 * (Y.UndoManager does that itself).
 */
import * as Y from 'yjs';
import { HISTORY_LIMIT, getArrows, getObjects } from '@wb/board-model';

export function createHistory(doc: Y.Doc, origin: unknown, onChange: () => void): Y.UndoManager {
  const manager = new Y.UndoManager([getObjects(doc), getArrows(doc)], {
    trackedOrigins: new Set([origin]),
    captureTimeout: 0,
  });
  manager.on('stack-item-added', () => {
    while (manager.undoStack.length > HISTORY_LIMIT) manager.undoStack.shift();
    while (manager.redoStack.length > HISTORY_LIMIT) manager.redoStack.shift();
    onChange();
  });
  manager.on('stack-item-popped', onChange);
  manager.on('stack-cleared', onChange);
  return manager;
}
