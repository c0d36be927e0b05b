// Where an export's time goes, without the HTTP stack: the bench's board rendered in this process,
// phase by phase (scene, then SVG string / Skia draw, pack, deflate / PDF), then through the service's
// render pool (2 niced threads; a large PNG in bands on both at once) to see the whole in wall time,
// including the hand-over between the threads and this one.
// `node --import tsx loadtests/export/profile.ts [png|pdf|svg]...`; add `--cpu-prof` to node for a
// profile of the in-process runs.
import * as Y from 'yjs';
import { PNG } from 'pngjs';
import { addArrow, addObject, snapshotOfDoc } from '@wb/board-model';
import { area, mixedBoard } from './board.ts';
import { bandCount, createRenderPool, fontFiles, render, renderBanded, type RenderTask } from '@wb/export/render';

const formats = process.argv.slice(2).length ? process.argv.slice(2) : ['svg', 'png', 'pdf'];
const imageUrl = '/yjs/images/b/' + 'a'.repeat(64);
const content = mixedBoard(imageUrl);
const doc = new Y.Doc();
content.objects.forEach((o) => addObject(doc, o));
content.arrows.forEach((a) => addArrow(doc, a));
const board = snapshotOfDoc(doc);
const img = new PNG({ width: 64, height: 48 });
for (let i = 0; i < img.data.length; i += 4) img.data.set([(i / 4) % 255, 120, 200, 255], i);
const images = { [imageUrl]: `data:image/png;base64,${PNG.sync.write(img).toString('base64')}` };
const fonts = fontFiles();
const threads = Number(process.env.EXPORT_WORKERS ?? 2);
const pool = createRenderPool({
  threads,
  nice: Number(process.env.EXPORT_WORKER_NICE ?? 10),
  onError: (err) => console.error('render thread failed:', err),
});
const phasesText = (p: Record<string, number>) => Object.entries(p).map(([k, v]) => `${k} ${v}`).join(', ');

for (const format of formats as Array<'png' | 'svg' | 'pdf'>) {
  const task: RenderTask = { format, board, area, background: 'grid', images, fonts, maxObjects: 10_000 };
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const r = await render(task);
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${format} in-process run ${run}: ${Math.round(performance.now() - t0)} ms wall, ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU, ` +
        `${r.ok ? `${(r.bytes.length / 1024).toFixed(0)} KiB (${phasesText(r.phases)})` : '-'}`,
    );
  }
  const bands = format === 'png' ? bandCount(area, threads) : 1;
  for (let run = 0; run < 4; run++) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const thread: string[] = [];
    const r = await renderBanded(
      async (t) => {
        const x = await pool.render(t, 60_000);
        if (x.ok) thread.push(phasesText(x.phases));
        return x;
      },
      async (t) => {
        const x = await pool.renderBand(t, 60_000);
        if (x.ok) thread.push(`band ${t.band.index}: ${phasesText(x.phases)}`);
        return x;
      },
      { ...task, format: format as 'png' },
      bands,
    );
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${format} pool run ${run} (${bands} band${bands > 1 ? 's' : ''}): ${Math.round(performance.now() - t0)} ms wall ` +
        `(process CPU, all threads: ${Math.round((cpu.user + cpu.system) / 1000)} ms), ${r.ok ? (r.bytes.length / 1024).toFixed(0) : '-'} KiB; ${thread.join('; ')}`,
    );
  }
}
await pool.close();
