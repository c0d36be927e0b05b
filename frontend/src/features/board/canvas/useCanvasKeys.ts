import { useEffect, type RefObject } from 'react';
import type { Point } from '@wb/board-model';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import { zoomToFit, zoomToSelection } from './engine/navigation.ts';
import { pasteOther } from './engine/commands/pasteText.ts';
import { clipboardImages, externalImageUrl } from './images.ts';
import { commandFor, isEditableTarget } from './keyboard.ts';
import { runStructure } from './structureMenu.ts';

export interface CanvasKeysOptions {
  engine: CanvasEngine | null;
  host: RefObject<HTMLDivElement | null>;
  /** The image tool chosen by its hotkey: the file picker opens. */
  chooseImage(): void;
  insertImageFile(file: File, at?: Point): Promise<void>;
  insertExternalImage(url: string, at?: Point): Promise<void>;
}

/**
 * Hotkeys (keyboard.ts), Space-drag, the clipboard and dropped images, all ignored while a field
 * has focus or a dialog of the canvas is open (§5).
 */
export function useCanvasKeys({ engine, host, chooseImage, insertImageFile, insertExternalImage }: CanvasKeysOptions): void {
  useEffect(() => {
    if (!engine) return;
    // Read at the moment of the key, not when the handlers were registered.
    const blocked = () => {
      const s = engine.state.getState();
      return !!s.editing || s.templatesOpen || s.confirmClear;
    };
    const keydown = (e: KeyboardEvent) => {
      if (isEditableTarget(e.target) || blocked()) return;
      if (e.code === 'Space') {
        e.preventDefault();
        engine.setSpace(true);
        return;
      }
      const cmd = commandFor(e);
      if (!cmd) return;
      e.preventDefault();
      switch (cmd.kind) {
        case 'tool':
          if (cmd.tool === 'image' && !engine.readOnly) chooseImage();
          else engine.setTool(cmd.tool);
          return;
        case 'color':
          if (!engine.readOnly) engine.recolorSelection(cmd.color);
          return;
        case 'undo':
          engine.commands.undo();
          return;
        case 'redo':
          engine.commands.redo();
          return;
        case 'delete':
          engine.commands.deleteSelection();
          return;
        case 'escape':
          engine.escape();
          return;
        case 'structure':
          runStructure(engine, cmd.action);
          return;
        case 'zoomToFit':
          zoomToFit(engine);
          return;
        case 'zoomToSelection':
          zoomToSelection(engine);
          return;
      }
    };
    const keyup = (e: KeyboardEvent) => {
      if (e.code === 'Space') engine.setSpace(false);
    };
    const copy = (e: ClipboardEvent) => {
      if (isEditableTarget(e.target) || blocked()) return;
      const text = engine.commands.copy();
      if (!text || !e.clipboardData) return;
      e.clipboardData.setData('text/plain', text);
      e.preventDefault();
    };
    const paste = (e: ClipboardEvent) => {
      if (isEditableTarget(e.target) || blocked() || engine.readOnly) return;
      const files = clipboardImages(e.clipboardData);
      const text = e.clipboardData?.getData('text/plain') ?? '';
      e.preventDefault();
      if (text && engine.commands.paste(text)) return;
      for (const file of files) void insertImageFile(file);
      const external = files.length === 0 ? externalImageUrl(e.clipboardData) : null;
      if (external) void insertExternalImage(external);
      // Neither board objects nor an image: a plain text becomes a text object, the rest is told why.
      else if (files.length === 0) pasteOther(engine, e.clipboardData, text);
    };
    // Dropped image files, or an image dragged from another page (its address), land where dropped.
    const dragover = (e: DragEvent) => {
      // Only over the canvas: elsewhere the browser keeps its own handling.
      if (engine.readOnly || !e.dataTransfer || !host.current?.contains(e.target as Node)) return;
      const types = [...e.dataTransfer.types];
      if (types.includes('Files') || types.includes('text/uri-list') || types.includes('text/html')) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      if (engine.readOnly || !e.dataTransfer || !host.current?.contains(e.target as Node)) return;
      e.preventDefault();
      const box = host.current.getBoundingClientRect();
      const at = engine.toBoard({ x: e.clientX - box.left, y: e.clientY - box.top });
      const files = [...e.dataTransfer.files];
      for (const file of files) void insertImageFile(file, at);
      const external = files.length === 0 ? externalImageUrl(e.dataTransfer) : null;
      if (external) void insertExternalImage(external, at);
    };
    window.addEventListener('keydown', keydown);
    window.addEventListener('keyup', keyup);
    document.addEventListener('copy', copy);
    document.addEventListener('paste', paste);
    document.addEventListener('dragover', dragover);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragover', dragover);
      document.removeEventListener('drop', drop);
      window.removeEventListener('keydown', keydown);
      window.removeEventListener('keyup', keyup);
      document.removeEventListener('copy', copy);
      document.removeEventListener('paste', paste);
    };
  }, [engine, host, chooseImage, insertImageFile, insertExternalImage]);
}
