// The bench's board: 2,000 mixed objects (stickies with emoji and reactions, shapes, lines, pen and
// highlighter strokes, texts, images) and arrows between stickies, the same on every run.
import type { ArrowInput, CanvasObjectInput } from '@wb/board-model';

export const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 2000);
export const SIDE = 4000;
export const area = { x: -SIDE / 2, y: -SIDE / 2, width: SIDE, height: SIDE };

/** Deterministic pseudo-random numbers, so every run draws the same board. */
function rng(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

export function mixedBoard(imageUrl: string): { objects: CanvasObjectInput[]; arrows: ArrowInput[] } {
  const r = rng(42);
  const at = () => -SIDE / 2 + r() * (SIDE - 300);
  const objects: CanvasObjectInput[] = [];
  const arrows: ArrowInput[] = [];
  const colors = ['#FFF2B3', '#FFD6A5', '#A0C4FF', '#CAFFBF', '#FFADAD'];
  const arrowCount = Math.round(OBJECTS * 0.1);
  for (let i = 0; objects.length < OBJECTS - arrowCount; i++) {
    const x = at();
    const y = at();
    const id = `o${i}`;
    const kind = i % 9;
    const c = colors[i % colors.length]!;
    if (kind === 0 || kind === 1)
      objects.push({ id, type: 'sticky', x, y, width: 160, height: 140, text: `Стикер ${i}: задача с текстом, который переносится по словам 👍`, backgroundColor: c, textColor: '#333333', fontSize: 14, textAlign: 'left', zIndex: i, reactions: i % 4 === 0 ? [{ emoji: '🔥', userId: 'u1', userName: 'Аня' }] : [] });
    else if (kind === 2) objects.push({ id, type: 'rectangle', x, y, width: 120, height: 80, fill: c, stroke: '#333333', strokeWidth: 2, rotation: (i * 7) % 45, zIndex: i });
    else if (kind === 3) objects.push({ id, type: 'ellipse', x, y, radiusX: 60, radiusY: 40, fill: c, stroke: '#1E88E5', strokeWidth: 2, zIndex: i });
    else if (kind === 4) objects.push({ id, type: 'line', points: [x, y, x + 150, y + 60], stroke: '#43A047', strokeWidth: 3, zIndex: i });
    else if (kind === 5 || kind === 6) {
      const points: number[] = [];
      for (let k = 0; k < 30; k++) points.push(x + k * 6, y + Math.sin(k / 3) * 30);
      objects.push({ id, type: kind === 5 ? 'path' : 'highlighter', points, stroke: kind === 5 ? '#8E24AA' : '#FFEB3B', strokeWidth: kind === 5 ? 3 : 16, tension: 0.5, zIndex: i });
    } else if (kind === 7) objects.push({ id, type: 'text', x, y, text: `Текст ${i}\nвторая строка`, fontSize: 18, fill: '#333333', zIndex: i });
    else objects.push({ id, type: 'image', x, y, width: 120, height: 90, src: imageUrl, zIndex: i, reactions: [] });
  }
  const ends = objects.filter((o) => o.type === 'sticky');
  for (let i = 0; i < arrowCount; i++) {
    const from = ends[i % ends.length]!;
    const to = ends[(i * 7 + 3) % ends.length]!;
    if (from.id !== to.id) arrows.push({ id: `a${i}`, fromId: from.id, toId: to.id, style: (['solid', 'dashed', 'dotted'] as const)[i % 3] });
  }
  return { objects, arrows };
}

