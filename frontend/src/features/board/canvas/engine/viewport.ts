/**
 * The camera and the size of the stage: the one place that turns screen pixels (relative to the
 * canvas element) into board coordinates and back. Rendering, input and commands all read it;
 * only CanvasEngine.setCamera/setSize write it (they also tell the renderer).
 */
import { boardToScreen, screenToBoard, visibleArea, type Bounds, type Camera, type Point } from '@wb/board-model';

export class Viewport {
  camera: Camera;
  width: number;
  height: number;

  constructor(width: number, height: number) {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
    this.camera = { x: this.width / 2, y: this.height / 2, scale: 1 };
  }

  toBoard(screen: Point): Point {
    return screenToBoard(this.camera, screen);
  }

  toScreen(board: Point): Point {
    return boardToScreen(this.camera, board);
  }

  centre(): Point {
    return this.toBoard({ x: this.width / 2, y: this.height / 2 });
  }

  /** The visible board area grown by `margin` of its size on every side. */
  area(margin: number): Bounds {
    const area = visibleArea(this.camera, this.width, this.height);
    return {
      x: area.x - area.width * margin,
      y: area.y - area.height * margin,
      width: area.width * (1 + 2 * margin),
      height: area.height * (1 + 2 * margin),
    };
  }

  /** Board bounds → screen box. */
  boxOnScreen(bounds: Bounds): Bounds {
    const tl = this.toScreen(bounds);
    return { x: tl.x, y: tl.y, width: bounds.width * this.camera.scale, height: bounds.height * this.camera.scale };
  }
}

export const sameCamera = (a: Camera, b: Camera): boolean => a.x === b.x && a.y === b.y && a.scale === b.scale;
