import { BoardPageContainer } from '../features/board/page/BoardPageContainer.tsx';

/** /board/:id — the board page (spec/board-page.md); everything lives in features/board/page. */
export function BoardPage() {
  return <BoardPageContainer />;
}
