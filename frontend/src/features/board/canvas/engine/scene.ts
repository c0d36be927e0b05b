/**
 * The one drawing of the board (libs/board-model render/scene.ts, shared with the export service):
 * the canvas turns these scene items into konva nodes and adds no drawing rules of its own.
 * Imported by path until the board-model package exports the render module.
 */
export {
  arrowToSceneItem,
  backgroundToScene,
  objectToSceneItem,
} from '../../../../../../libs/board-model/src/render/scene.ts';
export type {
  SceneItem,
  ScenePrimitive,
} from '../../../../../../libs/board-model/src/render/types.ts';
