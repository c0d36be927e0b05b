/**
 * The one drawing of the board (libs/board-model render/, shared with the export service): the
 * canvas turns these scene items into pixels and adds no drawing rules of its own.
 */
export { backgroundToScene, objectToSceneItem, validArrowToSceneItem, validObjectToSceneItem } from '@wb/board-model';
export type { SceneItem, ScenePrimitive } from '@wb/board-model';
