import { addSticky, yClient } from './clients.ts';

/**
 * What a product under a system update is asked while it restarts (issue 34: "a test sends requests
 * and WebSocket edits during the whole update and loses none"): HTTP loops through the gateway and
 * y-websocket editors adding stickies. Every answer is recorded, so a test can say which were not
 * answered and how long the product went without answering.
 */

export interface Answer {
  path: string;
  start: number;
  end: number;
  /** HTTP status, or 0 when the call failed without an answer (reset, refused). */
  status: number;
  error?: string;
}

export interface Traffic {
  answers: Answer[];
  editors: Array<ReturnType<typeof yClient> & { prefix: string; written: string[] }>;
  /** Stops sending; resolves when the loops have ended. */
  stop(): Promise<void>;
}

/**
 * `loops` concurrent HTTP loops, each calling the paths in turn back to back with `token`, and
 * `editorCount` clients on `boardId` each adding a sticky every `editEveryMs`.
 */
export function startTraffic(
  base: string,
  o: { token: string; boardId: string; paths: string[]; loops?: number; editorCount?: number; editEveryMs?: number },
): Traffic {
  const answers: Answer[] = [];
  let running = true;
  const loop = async (offset: number) => {
    for (let i = offset; running; i++) {
      const path = o.paths[i % o.paths.length]!;
      const start = Date.now();
      try {
        const res = await fetch(base + path, { headers: { authorization: `Bearer ${o.token}` }, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        answers.push({ path, start, end: Date.now(), status: res.status });
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        answers.push({ path, start, end: Date.now(), status: 0, error: cause?.code ?? cause?.message ?? (err as Error).message });
      }
    }
  };
  const loops = Array.from({ length: o.loops ?? 3 }, (_, i) => loop(i));
  const wsBase = `${base.replace(/^http/, 'ws')}/yjs`;
  let n = 0;
  const editors = Array.from({ length: o.editorCount ?? 2 }, (_, i) => ({ ...yClient(wsBase, o.boardId, o.token), prefix: `e${i}-`, written: [] as string[] }));
  const timers = editors.map((e) =>
    setInterval(() => {
      const id = `${e.prefix}${n++}`;
      addSticky(e.doc, id, id);
      e.written.push(id);
    }, o.editEveryMs ?? 150),
  );
  return {
    answers,
    editors,
    async stop() {
      running = false;
      for (const t of timers) clearInterval(t);
      await Promise.all(loops);
    },
  };
}

/** Answers that were not a success (2xx). */
export const failures = (answers: Answer[]) => answers.filter((a) => a.status < 200 || a.status >= 300);

/**
 * The longest time the product did not answer: the longest span, within [from, to], in which no
 * request got a successful answer (from one success's end to the next success's end). Includes
 * ordinary latency, so it is an upper bound on any outage.
 */
export function longestSilenceMs(answers: Answer[], from: number, to: number): number {
  const ends = answers
    .filter((a) => a.status >= 200 && a.status < 300)
    .map((a) => a.end)
    .filter((t) => t >= from && t <= to)
    .sort((a, b) => a - b);
  let longest = 0;
  let prev = from;
  for (const t of [...ends, to]) {
    longest = Math.max(longest, t - prev);
    prev = t;
  }
  return longest;
}

/** The longest time one editor's socket was not connected (from its provider's status events). */
export function watchDisconnects(editor: ReturnType<typeof yClient>): { longestMs: () => number; count: () => number } {
  let downSince: number | undefined;
  let longest = 0;
  let count = 0;
  editor.provider.on('status', ({ status }: { status: string }) => {
    if (status === 'disconnected' && downSince === undefined) {
      downSince = Date.now();
      count++;
    }
    if (status === 'connected' && downSince !== undefined) {
      longest = Math.max(longest, Date.now() - downSince);
      downSince = undefined;
    }
  });
  return { longestMs: () => Math.max(longest, downSince === undefined ? 0 : Date.now() - downSince), count: () => count };
}
