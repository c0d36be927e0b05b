/**
 * The live layer: what the user is touching, small enough to follow the camera every frame.
 *  - selected objects (and the arrows attached to them) as konva shapes under the transformer,
 *    painted by the same painter as the static layer;
 *  - temporary drawing: the shape or stroke being drawn, a new sticky/text before its save, the
 *    arrow preview;
 *  - the rubber band of the select and export-select tools.
 * The transformer's resize/rotate ends as a TransformedNode list handed to `onTransformEnd`
 * (CanvasEngine passes it to the commands).
 */
import Konva from 'konva';
import { acceptsBox, anchorOf, nodeRotationOf, normalizeRect, type CanvasObject, type Point } from '@wb/board-model';
import type { Viewport } from '../viewport.ts';
import { comparePaintOrder, type Entry, type SceneStore } from '../sceneStore.ts';
import { paintPrimitives } from './paint.ts';
import { objectToSceneItem, type ScenePrimitive } from './scene.ts';

const ALL_ANCHORS = ['top-left', 'top-center', 'top-right', 'middle-right', 'middle-left', 'bottom-left', 'bottom-center', 'bottom-right'];

/** Where the transformer left one selected node (konva attributes, board units). */
export interface TransformedNode {
  id: string;
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
  rotation: number;
}

export interface LiveLayerHooks {
  /** The selection moved on screen during a transform. */
  onTransform(): void;
  onTransformEnd(nodes: TransformedNode[], inGroup: boolean): void;
}

export function native(ctx: Konva.Context): CanvasRenderingContext2D {
  return (ctx as unknown as { _context: CanvasRenderingContext2D })._context;
}

export class LiveLayer {
  readonly layer = new Konva.Layer();
  readonly transformer: Konva.Transformer;
  private readonly tempShape: Konva.Shape;
  private readonly band = new Konva.Rect({ visible: false, listening: false, stroke: '#2196F3', fill: 'rgba(33,150,243,0.08)' });
  private readonly shapes = new Map<string, { version: number; shape: Konva.Shape }>();
  private temps: CanvasObject[] = [];
  private preview: ScenePrimitive[] = [];

  constructor(
    private readonly viewport: Viewport,
    private readonly scene: SceneStore,
    hooks: LiveLayerHooks,
  ) {
    this.tempShape = new Konva.Shape({
      listening: false,
      perfectDrawEnabled: false,
      sceneFunc: (ctx) => this.paintTemp(native(ctx)),
    });
    this.transformer = new Konva.Transformer({
      rotateEnabled: false,
      flipEnabled: false,
      keepRatio: false,
      ignoreStroke: true,
      anchorSize: 9,
      borderStroke: '#2196F3',
      anchorStroke: '#2196F3',
      boundBoxFunc: (oldBox, newBox) => {
        const group = this.transformer.nodes().length > 1;
        if (!acceptsBox(newBox, group)) return oldBox;
        return newBox;
      },
    });
    this.transformer.on('transformend', () => {
      const nodes = this.transformer.nodes();
      hooks.onTransformEnd(
        nodes.map((n) => ({ id: n.getAttr('objectId') as string, x: n.x(), y: n.y(), scaleX: n.scaleX(), scaleY: n.scaleY(), rotation: n.rotation() })),
        nodes.length > 1,
      );
    });
    this.transformer.on('transform', () => hooks.onTransform());
    this.layer.add(this.tempShape, this.band, this.transformer);
  }

  draw(): void {
    this.layer.batchDraw();
  }

  /** Follows the camera (called by the renderer when the camera changed). */
  followCamera(attrs: Konva.ContainerConfig): void {
    this.layer.setAttrs(attrs);
    this.band.strokeWidth(1 / this.viewport.camera.scale);
  }

  /** Whether a screen point is on one of the transformer's handles (its own drag, not a tool's). */
  isOnTransformer(stage: Konva.Stage, screen: Point): boolean {
    const shape = stage.getIntersection(screen);
    return !!shape && shape.getParent() === this.transformer;
  }

  // ---------------------------------------------------------------- temporary drawing

  setTemp(obj: CanvasObject | null): void {
    this.temps = obj ? [obj] : [];
    this.layer.batchDraw();
  }

  setPreview(primitives: ScenePrimitive[]): void {
    this.preview = primitives;
    this.layer.batchDraw();
  }

  showBand(a: Point, b: Point): void {
    const r = normalizeRect({ x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y });
    this.band.setAttrs({ ...r, visible: true });
    this.layer.batchDraw();
  }

  hideBand(draw = true): void {
    this.band.visible(false);
    if (draw) this.layer.batchDraw();
  }

  private paintTemp(ctx: CanvasRenderingContext2D): void {
    const opts = { scale: this.viewport.camera.scale, shadows: true };
    for (const obj of this.temps) {
      const item = objectToSceneItem(obj);
      if (item) paintPrimitives(ctx, item.primitives, opts);
    }
    paintPrimitives(ctx, this.preview, opts);
  }

  // ---------------------------------------------------------------- selected shapes

  /** Drops every live shape; the next sync rebuilds them from the document (after a transform). */
  rebuild(): void {
    for (const live of this.shapes.values()) live.shape.destroy();
    this.shapes.clear();
  }

  /**
   * Brings the konva shapes in line with `ids` (selected objects/arrows and attached arrows);
   * `editable` shows the handles (read-only roles see the frame only, §6).
   */
  sync(ids: Set<string>, selection: ReadonlySet<string>, editable: boolean): void {
    for (const [id, live] of this.shapes) {
      const e = this.scene.entries.get(id);
      if (!ids.has(id) || !e || e.version !== live.version) {
        live.shape.destroy();
        this.shapes.delete(id);
      }
    }
    const entries = [...ids].flatMap((id) => {
      const e = this.scene.entries.get(id);
      return e ? [e] : [];
    });
    entries.sort(comparePaintOrder);
    for (const e of entries) {
      if (!this.shapes.has(e.id)) this.shapes.set(e.id, { version: e.version, shape: this.shapeOf(e) });
    }
    entries.forEach((e, i) => this.shapes.get(e.id)?.shape.zIndex(i));
    const selectedShapes = entries.filter((e) => e.obj && selection.has(e.id)).map((e) => this.shapes.get(e.id)!.shape);
    const single = selectedShapes.length === 1 ? this.scene.object([...selection][0]) : null;
    this.transformer.resizeEnabled(editable);
    this.transformer.rotateEnabled(editable && single?.type === 'rectangle');
    this.transformer.enabledAnchors(editable ? ALL_ANCHORS : []);
    this.transformer.nodes(selectedShapes);
    this.transformer.moveToTop();
    this.tempShape.moveToTop();
    this.band.moveToTop();
  }

  private shapeOf(e: Entry): Konva.Shape {
    const anchor = e.obj ? anchorOf(e.obj) : { x: 0, y: 0 };
    const rotation = e.obj ? nodeRotationOf(e.obj) : 0;
    const primitives = e.item.primitives;
    const rad = (-rotation * Math.PI) / 180;
    const self =
      e.obj?.type === 'rectangle'
        ? { x: 0, y: 0, width: e.obj.width, height: e.obj.height }
        : { x: e.item.bounds.x - anchor.x, y: e.item.bounds.y - anchor.y, width: e.item.bounds.width, height: e.item.bounds.height };
    const shape = new Konva.Shape({
      x: anchor.x,
      y: anchor.y,
      rotation,
      listening: false,
      perfectDrawEnabled: false,
      sceneFunc: (ctx) => {
        const c = native(ctx);
        c.save();
        c.rotate(rad);
        c.translate(-anchor.x, -anchor.y);
        paintPrimitives(c, primitives, { scale: this.viewport.camera.scale, shadows: true });
        c.restore();
      },
    });
    shape.getSelfRect = () => self;
    shape.setAttr('objectId', e.id);
    this.layer.add(shape);
    return shape;
  }
}
