/**
 * The board-page scenarios alone: `node --import tsx loadtests/canvas/board-page-bench.ts
 * [--objects 5000] [--warm 3] [--moves 60]` (the SPA must be built: `npm run build`).
 */
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { commandLine, machineInfo, startStack } from '../lib/harness.ts';
import { formatBoardPageFigures, runBoardPageScenarios } from './boardPageScenarios.ts';

const { values } = parseArgs({
  options: { objects: { type: 'string', default: '5000' }, warm: { type: 'string', default: '3' }, moves: { type: 'string', default: '60' } },
});
const stack = await startStack();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const f = await runBoardPageScenarios({
    url: stack.url,
    browser,
    objects: Number(values.objects),
    warmRuns: Number(values.warm),
    cursorMoves: Number(values.moves),
  });
  console.log(`command: ${commandLine()}`);
  console.log(`machine: ${machineInfo()}, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const line of formatBoardPageFigures(f)) console.log(line);
} finally {
  await browser.close();
  await stack.stop();
}
