// Where an export's time goes, without the HTTP stack: the bench's board rendered in this process,
// phase by phase (scene, SVG, rasterise / PDF). `node --import tsx loadtests/export/profile.ts [png|pdf|svg]`;
// add `--cpu-prof` to node for a profile of the same run.
import * as Y from 'yjs';
import { PNG } from 'pngjs';
import { addArrow, addObject, snapshotOfDoc } from '@wb/board-model';
import { area, mixedBoard } from './board.ts';
import { fontFiles, render } from '@wb/export/render';

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

for (const format of formats) {
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const r = await render({ format: format as 'png', board, area, background: 'grid', images, fonts, maxObjects: 10_000 });
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${format} run ${run}: ${Math.round(performance.now() - t0)} ms wall, ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU, ` +
        `${r.ok ? (r.bytes.length / 1024).toFixed(0) : '-'} KiB`,
    );
  }
}
