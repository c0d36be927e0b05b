import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** When the recent builds started (ms, newest first), kept beside index.html; dot files are never served. */
export const HISTORY_FILE = '.builds.json';
/** Clock and file-time rounding: a file this much older than a build's start still counts as its own. */
const SLACK_MS = 1000;

function readHistory(file: string): number[] {
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(v) ? v.filter((t): t is number => typeof t === 'number') : [];
  } catch {
    return [];
  }
}

/**
 * Records a finished build that started at `started` and deletes the files in `<outDir>/assets` that
 * none of the last `keep` builds wrote. Vite writes every file of a build (an unchanged chunk too), so a
 * file's mtime says which build last wrote it. Until `keep` builds are on record nothing is deleted:
 * the files of a build not on record may belong to a page that is open right now.
 */
export function pruneAssets(outDir: string, started: number, keep = 2): string[] {
  const historyFile = path.join(outDir, HISTORY_FILE);
  const history = [started, ...readHistory(historyFile).filter((t) => t !== started)]
    .sort((a, b) => b - a)
    .slice(0, keep);
  writeFileSync(historyFile, `${JSON.stringify(history)}\n`);
  if (history.length < keep) return [];
  const cutoff = history[history.length - 1]! - SLACK_MS;
  const assets = path.join(outDir, 'assets');
  const removed: string[] = [];
  for (const name of readdirSync(assets)) {
    const file = path.join(assets, name);
    try {
      if (statSync(file).mtimeMs < cutoff) {
        unlinkSync(file);
        removed.push(name);
      }
    } catch {
      /* gone already (a build running beside this one) */
    }
  }
  return removed;
}

/**
 * `emptyOutDir: false` keeps the previous build's chunks for pages opened before a rebuild; this keeps
 * exactly that one previous build (and the current one) instead of every build ever made.
 */
export function pruneOldBuilds(keep = 2): Plugin {
  let outDir = '';
  let started = 0;
  let written = false;
  return {
    name: 'wb:prune-old-builds',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    buildStart() {
      started = Date.now();
      written = false;
    },
    writeBundle() {
      written = true;
    },
    // After the compression plugin's closeBundle wrote its twins; a failed build is not recorded.
    closeBundle: {
      order: 'post',
      handler() {
        if (!written) return;
        const removed = pruneAssets(outDir, started, keep);
        if (removed.length > 0) this.info(`removed ${removed.length} files of older builds from assets/`);
      },
    },
  };
}
