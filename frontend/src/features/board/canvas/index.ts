/**
 * The canvas of the board page (spec/board-page.md §2–§5, §9). Public API for the board page:
 *
 * ```tsx
 * const canvas = useRef<BoardCanvasHandle>(null);
 * <BoardCanvas
 *   ref={canvas}
 *   doc={doc}                      // Y.Doc synced by the page's y-websocket provider
 *   role={board.userRole}          // 'owner' | 'editor' | 'viewer' | 'guest' → read-only modes of §6
 *   limits={canvasLimits}          // {max_width, max_height, unlimited}
 *   background={background}        // 'white' | 'grid' | 'dots' | 'lines'
 *   camera={loadedCamera}          // CameraPosition | null (a view per device or the old format; null: content fitted)
 *   viewReady={cameraReady}        // the first view is opened once this is true
 *   onCameraChange={saveCameraDebounced}
 *   awareness={provider.awareness} // the canvas publishes `selection`; the page owns user/cursor
 *   undoOrigin={localOrigin}       // Y.UndoManager tracks this origin only
 *   onCursorMove={setCursor}       // board coordinates, for the footer and awareness
 *   onExportArea={exportPng}       // after canvas.current.setTool('export-select')
 *   uploadImage={(f) => uploadBoardImage(boardId, f, { accessToken, shareToken })}
 *   resolveImageSrc={createImageUrlSigner(boardId, { accessToken, shareToken })} // memoised
 *   acceptsImageSrc={(src) => imageSrcAllowed(src, boardId)}
 *   onObjectCountChange={setCount}
 *   onMessage={toast}
 * />
 * ```
 *
 * The component brings its own toolbar (tools, colours, sizes, arrow style, undo/redo, templates,
 * clear board), the sticky/text editor, the connected-sticker buttons and the template chooser;
 * everything the role forbids is hidden or disabled inside, so the page only passes the role.
 */
export { BoardCanvas } from './BoardCanvas.tsx';
export type { Area, BoardCanvasHandle, BoardCanvasProps } from './types.ts';
export { uploadBoardImage, createImageUrlSigner, ImageUploadError } from './images.ts';
