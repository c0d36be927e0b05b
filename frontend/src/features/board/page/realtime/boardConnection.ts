/**
 * One board's live document: a Y.Doc kept in IndexedDB (y-indexeddb) and synced with the realtime
 * service by the stock y-websocket provider. The provider's own backoff is replaced by §9's policy
 * (5 attempts, 1000 ms × 1.5ⁿ, cap 30 s) so the page can say honestly when it gave up.
 */
import { IndexeddbPersistence } from 'y-indexeddb';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { LOADED_FORCE_MS, countObjects } from '@wb/board-model';
import { BOARD_DB_PREFIX } from '../../../auth/deviceData.ts';
import { decideOnClose } from './reconnectPolicy.ts';
import { sendUpdatesInParts } from './updatesInParts.ts';

export type ConnectionPhase = 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'denied';

export interface ConnectionState {
  phase: ConnectionPhase;
  /** Objects are on screen: the server synced, the offline copy had content, or §9's 3 s passed. */
  loaded: boolean;
  /** The socket has been open at least once (stage 'Подключение к доске...' is over). */
  everConnected: boolean;
  /** The close code that denied access (4403/4404/4410). */
  deniedCode: number | null;
  attempts: number;
}

export interface ConnectionOptions {
  boardId: string;
  /** Access token of the signed-in user, if any. */
  accessToken: string | null;
  shareToken: string | null;
  /** Stable id of an anonymous link visitor (lets them toggle their own reaction off). */
  anonId: string | null;
  /** Asked for a fresh access token after a 4401. */
  refreshToken: () => Promise<string | null>;
  /** Called when the server says the local state is malformed (4400): the page rebuilds the doc. */
  onReset: () => void;
  wsBase?: string;
}

declare global {
  interface Window {
    /** The open board's connection, for benchmarks and browser tests (like window.__wbCanvas). */
    __wbBoard?: BoardConnection;
  }
}

/** How long the socket waits for IndexedDB to open before connecting without the offline copy. */
const IDB_WAIT_MS = 2000;
/** How long it waits for an opened IndexedDB to finish reading the copy (a large board takes seconds). */
const IDB_READ_WAIT_MS = 20_000;

// Cleared at logout with the device's other offline data (features/auth/deviceData.ts).
export const idbName = (boardId: string): string => `${BOARD_DB_PREFIX}${boardId}`;

/** User-timing marks of the open (read by loadtests/canvas/boardPageScenarios.ts: where the time goes). */
export function markOpen(name: 'idb-synced' | 'ws-open' | 'ws-synced' | 'board-answer' | 'camera-ready'): void {
  if (performance.getEntriesByName(`wb:${name}`, 'mark').length === 0) performance.mark(`wb:${name}`);
}

function defaultWsBase(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/yjs`;
}

function socketParams(o: ConnectionOptions): Record<string, string> {
  if (o.accessToken) return o.shareToken ? { token: o.accessToken, share: o.shareToken } : { token: o.accessToken };
  const params: Record<string, string> = { token: o.shareToken ?? '' };
  if (o.anonId) params.anon = o.anonId;
  return params;
}

type UpdateListener = (update: Uint8Array, origin: unknown) => void;

/**
 * Detaches the 'update' listeners of the persistence and the provider (their own fields, read
 * defensively: a release that renames them only loses the speed-up) until `restore()`.
 */
function quietUpdates(doc: Y.Doc, ...owners: object[]): { restore(): void } {
  const found = owners
    .flatMap((o) => [(o as { _storeUpdate?: unknown })._storeUpdate, (o as { _updateHandler?: unknown })._updateHandler])
    .filter((f): f is UpdateListener => typeof f === 'function');
  for (const f of found) doc.off('update', f);
  let restored = false;
  return {
    restore() {
      if (restored || doc.isDestroyed) return;
      restored = true;
      for (const f of found) doc.on('update', f);
    },
  };
}

export class BoardConnection {
  readonly doc = new Y.Doc();
  readonly provider: WebsocketProvider;
  readonly persistence: IndexeddbPersistence;
  private state: ConnectionState = {
    phase: 'connecting',
    loaded: false,
    everConnected: false,
    deniedCode: null,
    attempts: 0,
  };
  private listeners = new Set<() => void>();
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private destroyed = false;

  constructor(private readonly opts: ConnectionOptions) {
    this.persistence = new IndexeddbPersistence(idbName(opts.boardId), this.doc);
    this.provider = new WebsocketProvider(opts.wsBase ?? defaultWsBase(), opts.boardId, this.doc, {
      params: socketParams(opts),
      // Every server close goes through decideOnClose; the provider's own reconnect is switched off.
      shouldReconnect: () => false,
      disableBc: true,
      // Opened once the offline copy is in the doc: the sync's state vector then names what we
      // have, and the server sends only what is missing. Connecting with an empty doc made the
      // server send the whole board, decoded next to the same board read from IndexedDB.
      connect: false,
    });
    sendUpdatesInParts(this.provider, this.doc);
    // While the offline copy is read nobody needs the doc's 'update' events (y-indexeddb ignores
    // its own, and the socket is not open), but as long as anyone listens Yjs encodes the whole
    // loaded board once more to emit one: ~20 % of a warm open's CPU on a 5,000-object board.
    const listeners = quietUpdates(this.doc, this.persistence, this.provider);
    void this.persistence.whenSynced.then(() => {
      listeners.restore();
      markOpen('idb-synced');
      // A warm offline copy is shown at once; the server's diff follows.
      if (countObjects(this.doc) > 0) this.update({ loaded: true });
      this.firstConnect();
    });
    // IndexedDB unavailable or stuck (private mode, quota): the network alone.
    const withoutCopy = () => {
      listeners.restore();
      this.firstConnect();
    };
    this.later(IDB_WAIT_MS, () => {
      // Opened and still reading (a large board may take longer than IDB_WAIT_MS): connecting with
      // the half-read document would have the server send the whole board again, decoded next to
      // the same board read from IndexedDB.
      if ((this.persistence as { db?: unknown }).db) this.later(IDB_READ_WAIT_MS - IDB_WAIT_MS, withoutCopy);
      else withoutCopy();
    });
    this.provider.on('status', ({ status }) => {
      if (status === 'connected') {
        markOpen('ws-open');
        this.update({ phase: 'connected', everConnected: true });
        this.later(LOADED_FORCE_MS, () => {
          if (!this.state.loaded && this.state.phase === 'connected') this.update({ loaded: true });
        });
      }
    });
    this.provider.on('sync', (synced) => {
      if (!synced) return;
      markOpen('ws-synced');
      this.update({ loaded: true, attempts: 0 });
    });
    this.provider.on('closed', ({ code }) => this.onClosed(code));
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
  }

  private connectStarted = false;

  private firstConnect(): void {
    if (this.connectStarted || this.destroyed) return;
    this.connectStarted = true;
    // Offline at open: the doc works from IndexedDB (all there is, even an empty board) and the
    // 'online' event connects.
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      this.update({ phase: 'offline', loaded: true });
      return;
    }
    this.provider.connect();
  }

  // The browser knows before the socket does; edits made meanwhile stay in the doc and IndexedDB.
  private onOffline = () => {
    this.provider.disconnect();
    this.update({ phase: 'offline' });
  };

  private onOnline = () => {
    if (this.state.phase === 'offline') this.retry();
  };

  private onClosed(code: number): void {
    if (this.destroyed) return;
    const decision = decideOnClose(code, this.state.attempts);
    switch (decision.action) {
      case 'denied':
        this.update({ phase: 'denied', deniedCode: decision.code });
        return;
      case 'offline':
        this.update({ phase: 'offline' });
        return;
      case 'reset':
        this.opts.onReset();
        return;
      case 'refresh-token':
        this.update({ phase: 'reconnecting', attempts: this.state.attempts + 1 });
        void this.opts.refreshToken().then((token) => {
          if (this.destroyed) return;
          if (token && this.opts.accessToken) this.provider.params = { ...this.provider.params, token };
          this.provider.connect();
        });
        return;
      case 'retry':
        this.update({ phase: 'reconnecting', attempts: this.state.attempts + (decision.delayMs > 0 ? 1 : 0) });
        this.later(decision.delayMs, () => this.provider.connect());
        return;
    }
  }

  /** The offline state's button: start over with a fresh attempt budget. */
  retry(): void {
    this.update({ phase: 'connecting', attempts: 0 });
    this.provider.connect();
  }

  getState = (): ConnectionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(patch: Partial<ConnectionState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.destroyed) fn();
    }, ms);
    this.timers.add(t);
  }

  /** Leaves the board: awareness removed at once (others see us leave), sockets and storage closed. */
  destroy(): void {
    this.destroyed = true;
    for (const t of this.timers) clearTimeout(t);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    this.provider.awareness.setLocalState(null);
    this.provider.destroy();
    void this.persistence.destroy();
    this.doc.destroy();
  }

  /** Throws the offline copy away (critical sync errors, §9). */
  async clearLocalCopy(): Promise<void> {
    await this.persistence.clearData();
  }
}
