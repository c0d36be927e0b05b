import {
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { useMemo, useRef, useState } from 'react';
import { notify } from '../../../lib/notify.ts';
import { dragPoint, keyboardCoordinates, markDragEnd, zoneOf, type DragData, type DropData } from '../dnd.ts';
import type { DropIndicator } from '../FoldersPanel.tsx';
import { findFolder, isDropIntoOwnChild, planFolderDrop, type FolderMove } from '../logic.ts';
import { OWN, SPEC } from '../texts.ts';
import type { BoardListItem, FolderNode } from '../types.ts';

interface Deps {
  folders: readonly FolderNode[];
  moveBoardTo: (board: BoardListItem, folderId: string | null) => Promise<void>;
  runFolderMove: (move: FolderMove) => Promise<void>;
}

const targetIdOf = (t: DropData): string | null => (t.type === 'root' ? null : t.folderId);

/**
 * Drag and drop of boards onto folders and of folders before, inside or after folders. A folder
 * dropped into its own subfolder is refused with the spec's reason, on screen and to screen readers.
 */
export function useFolderDnd({ folders, moveBoardTo, runFolderMove }: Deps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );
  const [dragging, setDragging] = useState<DragData | null>(null);
  const [indicator, setIndicator] = useState<DropIndicator | null>(null);
  const indicatorRef = useRef<DropIndicator | null>(null);

  /** What a drop here would do: the indicator to show, or null when the drop is refused. */
  const resolveDrop = (e: DragMoveEvent | DragEndEvent): DropIndicator | null => {
    const data = e.active.data.current as DragData | undefined;
    const target = e.over?.data.current as DropData | undefined;
    if (!data || !e.over || !target) return null;
    if (data.type === 'board') {
      const folderId = targetIdOf(target);
      if (data.board.folder_id === folderId) return null;
      return { target: folderId ?? 'root', zone: 'inside' };
    }
    const zone = zoneOf(e.over, dragPoint(e.active, e.activatorEvent, e.delta), 'folder');
    if (!planFolderDrop(folders, data.folder.id, targetIdOf(target), zone)) return null;
    return { target: target.type === 'root' ? 'root' : target.folderId, zone: target.type === 'root' ? 'inside' : zone };
  };

  const setInd = (v: DropIndicator | null) => {
    const prev = indicatorRef.current;
    if (prev?.target === v?.target && prev?.zone === v?.zone) return;
    indicatorRef.current = v;
    setIndicator(v);
  };

  const end = () => {
    markDragEnd();
    setDragging(null);
    setInd(null);
  };

  const onDragStart = (e: DragStartEvent) => {
    setDragging((e.active.data.current as DragData | undefined) ?? null);
    setInd(null);
  };
  const onDragMove = (e: DragMoveEvent) => setInd(resolveDrop(e));
  const onDragEnd = (e: DragEndEvent) => {
    const ind = resolveDrop(e);
    const data = e.active.data.current as DragData | undefined;
    const target = e.over?.data.current as DropData | undefined;
    end();
    if (data?.type === 'folder' && target && isDropIntoOwnChild(folders, data.folder.id, targetIdOf(target))) {
      notify.error(SPEC.cyclicMove);
      return;
    }
    if (!ind || !data) return;
    if (data.type === 'board') {
      void moveBoardTo(data.board, ind.target === 'root' ? null : ind.target);
      return;
    }
    const plan = planFolderDrop(folders, data.folder.id, ind.target === 'root' ? null : ind.target, ind.zone);
    if (plan) void runFolderMove(plan);
  };

  const announcements = useMemo<Announcements>(() => {
    const nameOf = (d: DragData | undefined) =>
      d?.type === 'board' ? `«${d.board.title}»` : d ? `«${d.folder.name}»` : '';
    const overName = (id: string | number | undefined) => {
      if (!id) return '';
      if (id === 'drop:root') return SPEC.noFolder;
      const f = findFolder(folders, String(id).replace('drop:folder:', ''));
      return f ? `«${f.name}»` : '';
    };
    /** The refusal, said while hovering over one's own subfolder and again on the drop. */
    const refusal = (active: DragData | undefined, over: DropData | undefined) =>
      active?.type === 'folder' && over && isDropIntoOwnChild(folders, active.folder.id, targetIdOf(over))
        ? `. ${SPEC.cyclicMove}`
        : '';
    return {
      onDragStart: ({ active }) => `${OWN.a11yPicked} ${nameOf(active.data.current as DragData)}`,
      onDragOver: ({ active, over }) =>
        over
          ? `${nameOf(active.data.current as DragData)} — ${overName(over.id)}${refusal(
              active.data.current as DragData,
              over.data.current as DropData,
            )}`
          : OWN.a11yNoTarget,
      onDragEnd: ({ active, over }) => {
        if (!over) return OWN.a11yDropped;
        const why = refusal(active.data.current as DragData, over.data.current as DropData);
        return why ? SPEC.cyclicMove : `${nameOf(active.data.current as DragData)} → ${overName(over.id)}`;
      },
      onDragCancel: () => OWN.a11yCancelled,
    };
  }, [folders]);

  return {
    sensors,
    dragging,
    indicator,
    announcements,
    handlers: { onDragStart, onDragMove, onDragOver: onDragMove, onDragEnd, onDragCancel: end },
  };
}
