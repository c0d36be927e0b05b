import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { ConfigError, createServiceApp, defineService, eventMetrics, internalAuth, type RunnableService, type TokenVerifier, type Registry } from '@wb/service-kit';
import type { EventTransport, Subscription } from '@wb/events';
import { CloseCode } from './domain/close-codes.ts';
import { savedEventId } from './domain/snapshots.ts';
import { DEFAULT_LIMITS, limitsFromConfig, RealtimeConfigSchema, type RealtimeLimits } from './config.ts';
import { createBoardAccessClient, type BoardAccessClient } from './access.ts';
import type { DocumentStore } from './store/types.ts';
import { createPostgresStore, REALTIME_SCHEMA } from './store/postgres.ts';
import { JournaledStore } from './store/journal.ts';
import { RealtimeServer } from './core/server.ts';
import type { Extension } from './core/types.ts';
import { Auth } from './extensions/auth.ts';
import { ReactionLimits } from './extensions/reaction-limits.ts';
import { cacheBoardAccess, coalesceVerifier } from './admission-cache.ts';
import { Persistence } from './extensions/persistence.ts';
import { Relay, type ControlMessage } from './extensions/relay.ts';
import { createRealtimeMetrics } from './extensions/metrics.ts';
import { BOARDS_CONSUMER, subscribeBoardEvents } from './events/board-consumer.ts';
import { IMAGES_CONSUMER, subscribeImageCleanup } from './events/images-consumer.ts';
import { documentRoutes } from './routes/documents.ts';
import { createMongoImageStore, createPostgresImageStore, imageRoutes, type ImageStore } from './images/index.ts';
import { signedUrlRoutes } from './images/signed-urls.ts';


export interface RealtimeDeps {
  logger: Logger;
  store: DocumentStore;
  verifier: TokenVerifier;
  boards: BoardAccessClient;
  /** Domain events (board.deleted, board.sharing_changed in; board.saved out). */
  transport?: EventTransport;
  /** Core NATS for the relay between replicas; absent = a single replica. */
  nats?: NatsConnection;
  replicaId?: string;
  limits?: Partial<RealtimeLimits>;
  registry?: Registry;
  /** The shared secret /internal/* requires; the runners always pass one (tests may leave it open). */
  internalToken?: string;
  /** Board images (src/images); absent = no image routes. */
  images?: ImageStore;
  imageMaxBytes?: number;
  /**
   * The key image URLs are signed with (IMAGE_URL_SECRET). Absent: derived from the internal token,
   * which every replica of a cluster shares and the embedded mode generates per start; without
   * either, random per process.
   */
  imageUrlSecret?: string;
}

export interface RealtimeService extends RunnableService {
  server: RealtimeServer;
  persistence: Persistence;
  replicaId: string;
}

export async function createRealtimeService(deps: RealtimeDeps): Promise<RealtimeService> {
  const limits: RealtimeLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const replicaId = deps.replicaId ?? randomUUID();
  const logger = deps.logger.child({ replica: replicaId });
  const { app, registry, finish } = createServiceApp({
    name: 'realtime',
    logger,
    registry: deps.registry,
    bodyLimit: '16kb',
    readiness: {
      store: () => deps.store.ping(),
      ...(deps.nats ? { nats: async () => !deps.nats!.isClosed() } : {}),
      ...(deps.transport ? { events: () => deps.transport!.healthy() } : {}),
    },
  });

  const persistence = new Persistence({
    store: deps.store,
    logger,
    compactIntervalMs: limits.compactIntervalMs,
    onSaved: async (boardId, version, objectsCount) => {
      await deps.transport?.publish({
        id: savedEventId(boardId, version),
        type: 'board.saved',
        occurredAt: new Date().toISOString(),
        source: 'realtime',
        data: { boardId, version, objectsCount },
      });
    },
  });

  // Set below, once the server exists; extensions only call it after start.
  let server!: RealtimeServer;
  const onControl = (boardId: string, msg: ControlMessage) => void applyControl(boardId, msg);

  let relay: Relay | undefined;
  const metricsRef: { observeRelayLag?: (s: number) => void } = {};
  if (deps.nats) {
    relay = new Relay({
      nc: deps.nats,
      replicaId,
      logger,
      onControl,
      observeLag: (s) => metricsRef.observeRelayLag?.(s),
      maxDocBytes: limits.maxDocBytes,
      catchUp: () => persistence.catchUpAll(),
    });
  }

  // A burst of sockets costs one access look-up per board and credential (see admission-cache.ts).
  const boards = cacheBoardAccess(deps.boards, limits.admissionCacheMs);
  const verifier = coalesceVerifier(deps.verifier);
  // Order matters: the relay subscribes before the store is read, so nothing relayed meanwhile is missed.
  const extensions: Extension[] = [new Auth({ verifier, boards }), new ReactionLimits()];
  if (relay) extensions.push(relay);
  extensions.push(persistence);

  // eslint-disable-next-line prefer-const -- declared above, before the closures that use it
  server = new RealtimeServer({
    limits,
    logger,
    extensions,
    write: (entries) => deps.store.appendMany(entries),
    isSessionRevoked: (sid) => deps.verifier.revocations?.isRevoked(sid) ?? false,
  });
  // Revoked sessions (service-kit revocation.ts) lose their sockets as soon as this process learns of them.
  const stopRevocations = deps.verifier.revocations?.onRevoked((sids) => server.closeSessions(new Set(sids)));
  const metrics = createRealtimeMetrics(registry, {
    connections: () => server.connectionCount,
    documents: () => server.rooms.size,
    persistenceLagMs: () => server.commits.lagMs(),
    backlogBytes: () => server.commits.backlogBytes,
    pausedSockets: () => server.pausedCount,
    journalBytes: () => deps.store.unshippedBytes?.() ?? 0,
  });
  server.setStats(metrics.stats);
  eventMetrics(registry, { transport: deps.transport, consumers: [BOARDS_CONSUMER, ...(deps.images ? [IMAGES_CONSUMER] : [])] });
  metricsRef.observeRelayLag = metrics.observeRelayLag;

  /** Applies the action on this replica and sends it to the others holding the board. */
  async function control(boardId: string, msg: ControlMessage): Promise<void> {
    if (relay) {
      relay.control(boardId, msg);
      await deps.nats!.flush();
    }
    await applyControl(boardId, msg);
  }

  async function applyControl(boardId: string, msg: ControlMessage): Promise<void> {
    try {
      if (msg.action === 'deleted') {
        boards.invalidate(boardId);
        await server.dropRoom(boardId, CloseCode.BOARD_NOT_FOUND, 'board deleted');
      } else if (msg.action === 'reset') await server.resetRoom(boardId, { persist: false });
      else if (msg.action === 'revoke') revokeHere(boardId, msg.tokens ?? null);
      else await recheck(boardId);
    } catch (err) {
      logger.error({ err, boardId, action: msg.action }, 'control action failed');
    }
  }

  /** Links died: forget cached answers, close their sockets and drop their queued updates. */
  function revokeHere(boardId: string, tokens: string[] | null): number {
    boards.invalidate(boardId);
    return server.revokeLinks(boardId, tokens ? new Set(tokens) : null);
  }

  /** The boards service's synchronous call: this replica at once, the others through the relay. */
  async function revoke(boardId: string, tokens: string[] | null): Promise<number> {
    const closed = revokeHere(boardId, tokens);
    if (relay) {
      relay.control(boardId, { action: 'revoke', ...(tokens ? { tokens } : {}) });
      await deps.nats!.flush();
    }
    return closed;
  }

  /** Sharing changed: every connection asks boards again with the credentials it came with. */
  async function recheck(boardId: string): Promise<void> {
    boards.invalidate(boardId);
    await Promise.all(
      server.connectionsOf(boardId).map(async (conn) => {
        const who = conn.identity;
        if (!who) return;
        const answer = await boards
          .access(boardId, { userId: who.userId ?? undefined, shareToken: who.shareToken })
          .catch(() => null);
        if (!answer) return; // boards unreachable: keep the connection rather than guess
        if (!answer.board) conn.close(CloseCode.BOARD_NOT_FOUND);
        else if (answer.role === 'none') conn.close(CloseCode.ACCESS_REVOKED);
        // A changed role takes effect at once: the core reads it for every message.
        else who.role = answer.role;
      }),
    );
  }

  if (deps.internalToken) app.use('/internal', internalAuth(deps.internalToken));
  app.use(
    documentRoutes({
      server,
      persistence,
      store: deps.store,
      verifier,
      boards,
      reset: (boardId) => control(boardId, { action: 'reset' }),
      revoke,
    }),
  );
  if (deps.images) {
    const urlKey = imageUrlKey(deps.imageUrlSecret, deps.internalToken);
    app.use(signedUrlRoutes({ verifier, boards, urlKey }));
    app.use(imageRoutes({ images: deps.images, verifier, boards, maxBytes: deps.imageMaxBytes, urlKey }));
  }
  finish();

  let subscription: Subscription | undefined;
  let imageSubscription: Subscription | undefined;
  return {
    name: 'realtime',
    app,
    server,
    persistence,
    replicaId,
    handleUpgrade: (req, socket, head) => server.handleUpgrade(req, socket, head),
    async start() {
      await deps.store.init();
      await deps.images?.init();
      persistence.start(() => server.rooms.values());
      if (deps.transport) {
        subscription = await subscribeBoardEvents({
          transport: deps.transport,
          store: deps.store,
          logger,
          control,
          settleMs: limits.flushIntervalMs * 5,
        });
        if (deps.images)
          imageSubscription = await subscribeImageCleanup({ transport: deps.transport, images: deps.images, logger });
      }
    },
    async stop() {
      stopRevocations?.();
      await subscription?.stop();
      await imageSubscription?.stop();
      // Closes sockets with 4503 (clients reconnect elsewhere), flushes and compacts every board.
      await server.stop();
    },
  };
}

/** See RealtimeDeps.imageUrlSecret: one key per deployment, never the internal token itself. */
function imageUrlKey(secret: string | undefined, internalToken: string | undefined): Buffer {
  if (secret) return Buffer.from(secret);
  if (internalToken) return createHmac('sha256', internalToken).update('realtime image urls').digest();
  return randomBytes(32);
}

/** The realtime service as runners see it (the package's entry): see defineService in @wb/service-kit. */
export const realtimeService = defineService({
  name: 'realtime',
  configSchema: RealtimeConfigSchema,
  reachedBy: (url) => ({ REALTIME_URL: url, REALTIME_INTERNAL_URL: url }),
  async create(config, rt) {
    let store: DocumentStore;
    let images: ImageStore;
    if (config.MONGO_URL) {
      // Loaded only here: the embedded mode keeps documents in PostgreSQL and never needs the driver.
      const { createMongoStore } = await import('./store/mongo.ts');
      store = await createMongoStore({ url: config.MONGO_URL, dbName: config.MONGO_DB, fsync: config.UPDATE_LOG_FSYNC });
      images = await createMongoImageStore({ url: config.MONGO_URL, dbName: config.MONGO_DB });
    } else if (config.DATABASE_URL) {
      store = createPostgresStore(rt.pool(REALTIME_SCHEMA), { fsync: config.UPDATE_LOG_FSYNC });
      images = createPostgresImageStore(rt.pool(REALTIME_SCHEMA), REALTIME_SCHEMA);
    } else {
      throw new ConfigError('Invalid configuration:\n  MONGO_URL or DATABASE_URL is required');
    }
    if (config.UPDATE_LOG_JOURNAL_DIR) {
      store = new JournaledStore({
        dir: config.UPDATE_LOG_JOURNAL_DIR,
        store,
        logger: rt.logger,
        fsync: config.UPDATE_LOG_FSYNC,
        maxUnshippedBytes: config.MAX_PENDING_BYTES,
      });
    }
    const service = await createRealtimeService({
      logger: rt.logger,
      store,
      verifier: rt.verifier,
      boards: createBoardAccessClient(config.BOARDS_INTERNAL_URL, undefined, { internalToken: rt.internalToken }),
      transport: rt.transport,
      nats: await rt.nats(),
      replicaId: config.REPLICA_ID,
      limits: limitsFromConfig(config),
      registry: rt.registry,
      internalToken: rt.internalToken,
      images,
      imageMaxBytes: config.IMAGE_MAX_BYTES,
      imageUrlSecret: config.IMAGE_URL_SECRET,
    });
    return {
      ...service,
      async stop() {
        await service.stop();
        await store.close();
        await images.close();
      },
    };
  },
});

export default realtimeService;
