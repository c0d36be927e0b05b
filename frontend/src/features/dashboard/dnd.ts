/**
 * dnd-kit wiring of the dashboard: ids and data of draggables/droppables, the collision strategy
 * (pointer: what is under the pointer; keyboard: the closest centre), and a keyboard coordinates
 * getter that jumps between drop targets (and between the three zones of a folder row when a folder moves).
 */
import {
  closestCenter,
  KeyboardCode,
  pointerWithin,
  type Active,
  type CollisionDetection,
  type KeyboardCoordinateGetter,
  type Over,
} from '@dnd-kit/core';
import type { BoardListItem, FolderNode } from './types.ts';
import { zoneFromPointer, type DropZone } from './logic.ts';

export type DragData = { type: 'board'; board: BoardListItem } | { type: 'folder'; folder: FolderNode };
export type DropData = { type: 'folder'; folderId: string } | { type: 'root' };

export const ROOT_DROP_ID = 'drop:root';
export const folderDropId = (id: string) => `drop:folder:${id}`;

let lastDragEnd = 0;
/** A drop ends with a click on whatever is under the pointer; cards ignore that click. */
export const markDragEnd = () => {
  lastDragEnd = Date.now();
};
export const wasJustDragged = () => Date.now() - lastDragEnd < 250;

export const collisionDetection: CollisionDetection = (args) =>
  args.pointerCoordinates ? pointerWithin(args) : closestCenter(args);

/** The point that decides the zone: the pointer for mouse/touch, the dragged rect's centre for the keyboard. */
export function dragPoint(
  active: Active,
  activatorEvent: Event | null,
  delta: { x: number; y: number },
): { x: number; y: number } | null {
  if (
    activatorEvent &&
    'clientY' in activatorEvent &&
    typeof (activatorEvent as PointerEvent).clientY === 'number'
  ) {
    const e = activatorEvent as PointerEvent;
    return { x: e.clientX + delta.x, y: e.clientY + delta.y };
  }
  const r = active.rect.current.translated;
  return r ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
}

/** Zone of the current drop target for a folder drag ('inside' for the root entry and for board drags). */
export function zoneOf(over: Over, point: { y: number } | null, dragType: DragData['type']): DropZone {
  const data = over.data.current as DropData | undefined;
  if (dragType !== 'folder' || data?.type !== 'folder' || !point) return 'inside';
  return zoneFromPointer(point.y, over.rect.top, over.rect.height);
}

const FOLDER_SLOTS = [0.125, 0.5, 0.875];

/**
 * Arrow keys move the dragged item from one drop target to the next (down/right) or previous (up/left),
 * in screen order; for a folder each folder row offers three stops: before, inside, after.
 */
export const keyboardCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const forward = event.code === KeyboardCode.Down || event.code === KeyboardCode.Right;
  const backward = event.code === KeyboardCode.Up || event.code === KeyboardCode.Left;
  if (!forward && !backward) return undefined;
  event.preventDefault();
  const { active, collisionRect, droppableContainers } = context;
  if (!active || !collisionRect) return undefined;
  const dragType = (active.data.current as DragData | undefined)?.type;
  const stops: { x: number; y: number }[] = [];
  for (const c of droppableContainers.getEnabled()) {
    const rect = c.rect.current;
    if (!rect) continue;
    const data = c.data.current as DropData | undefined;
    const fractions = dragType === 'folder' && data?.type === 'folder' ? FOLDER_SLOTS : [0.5];
    for (const f of fractions) stops.push({ x: rect.left + rect.width / 2, y: rect.top + rect.height * f });
  }
  if (!stops.length) return undefined;
  stops.sort((a, b) => a.y - b.y || a.x - b.x);
  const cx = collisionRect.left + collisionRect.width / 2;
  const cy = collisionRect.top + collisionRect.height / 2;
  // The overlay is not exactly the size of the row it started from: a few pixels count as "here".
  const eps = 4;
  const target = forward
    ? stops.find((s) => s.y > cy + eps || (Math.abs(s.y - cy) <= eps && s.x > cx + eps))
    : [...stops].reverse().find((s) => s.y < cy - eps || (Math.abs(s.y - cy) <= eps && s.x < cx - eps));
  if (!target) return currentCoordinates;
  return {
    x: currentCoordinates.x + (target.x - cx),
    y: currentCoordinates.y + (target.y - cy),
  };
};
