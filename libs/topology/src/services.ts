import type { ServiceTopology } from './types.ts';

/** Every service reads access tokens and the internal credential; these are never in a ConfigMap. */
const COMMON_SECRETS = ['DATABASE_URL', 'INTERNAL_TOKEN'];

const probes = (startupSeconds = 60) => ({ health: '/health', ready: '/ready', startupSeconds });

/**
 * The topology manifest: one entry per service, in start order (the gateway last, it fronts the
 * others). Adding a service is one entry here and its package; the gateway's routing, the runners,
 * the Helm chart's values, the configuration table of docs/operations.md and the dashboards come
 * from it, and libs/topology/test checks that each of them agrees.
 */
export const TOPOLOGY = [
  {
    name: 'auth',
    package: '@wb/auth',
    port: 3001,
    routes: [{ path: '/api/auth' }, { path: '/api/admin/users' }],
    needs: {
      postgres: { schema: 'auth' },
      nats: { consumers: ['auth-plan-and-boards'], publishes: true },
      services: [],
    },
    reachedBy: { AUTH_URL: '', AUTH_JWKS_URL: '/internal/jwks' },
    settings: {
      // SMTP_URL may carry the relay's password; production refuses to start without it.
      secrets: [...COMMON_SECRETS, 'AUTH_PRIVATE_KEY_PEM', 'ADMIN_PASSWORD', 'SMTP_URL'],
      required: ['DATABASE_URL', 'SMTP_URL'],
    },
    probes: probes(),
    nodeFlags: [],
    resources: { requests: { cpu: '100m', memory: '192Mi' }, limits: { memory: '512Mi' } },
    scaling: { replicas: 2 },
    metricsPrefix: 'auth_',
  },
  {
    name: 'boards',
    package: '@wb/boards',
    port: 3002,
    routes: [{ path: '/api/boards' }, { path: '/api/folders' }, { path: '/api/tags' }],
    needs: {
      postgres: { schema: 'boards' },
      nats: { consumers: ['boards-user-names', 'boards-users', 'boards-entitlements'], publishes: true },
      services: ['auth', 'realtime'],
    },
    reachedBy: { BOARDS_URL: '', BOARDS_INTERNAL_URL: '' },
    settings: { secrets: COMMON_SECRETS, required: ['DATABASE_URL', 'AUTH_JWKS_URL'] },
    probes: probes(),
    nodeFlags: [],
    resources: { requests: { cpu: '100m', memory: '192Mi' }, limits: { memory: '512Mi' } },
    scaling: { replicas: 2 },
    metricsPrefix: 'boards_',
  },
  {
    name: 'realtime',
    package: '@wb/realtime',
    port: 3004,
    routes: [
      { path: '/yjs', websocket: true, byBoard: true },
      // Snapshot debugging reads the realtime store, though it sits under /api/boards.
      { path: '/api/boards/:boardId/debug', byBoard: true },
    ],
    needs: {
      mongo: true,
      nats: { consumers: ['realtime-boards', 'realtime-images'], publishes: true, coreSubjects: ['rt.board.>'] },
      services: ['auth', 'boards'],
    },
    reachedBy: { REALTIME_URL: '', REALTIME_INTERNAL_URL: '' },
    settings: { secrets: [...COMMON_SECRETS, 'MONGO_URL'], required: ['BOARDS_INTERNAL_URL', 'AUTH_JWKS_URL'] },
    probes: probes(),
    // Why: docs/decisions.md ("the young generation").
    nodeFlags: ['--max-semi-space-size=8'],
    resources: { requests: { cpu: '250m', memory: '384Mi' }, limits: { memory: '1Gi' } },
    scaling: { replicas: 2, autoscale: { min: 2, max: 10, cpuPercent: 70 }, headless: true },
    metricsPrefix: 'realtime_',
  },
  {
    name: 'billing',
    package: '@wb/billing',
    port: 3005,
    routes: [
      { path: '/api/billing' },
      { path: '/api/admin/plans' },
      { path: '/api/admin/subscriptions' },
      { path: '/api/admin/payments' },
      { path: '/api/admin/config' },
    ],
    needs: {
      postgres: { schema: 'billing' },
      nats: { consumers: ['billing-users'], publishes: true },
      services: ['auth', 'export'],
    },
    reachedBy: { BILLING_URL: '' },
    settings: {
      secrets: [...COMMON_SECRETS, 'PAYMENTS_TEST_SECRET', 'YOOKASSA_SECRET_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
      required: ['DATABASE_URL', 'AUTH_JWKS_URL'],
    },
    probes: probes(),
    nodeFlags: [],
    resources: { requests: { cpu: '50m', memory: '160Mi' }, limits: { memory: '384Mi' } },
    scaling: { replicas: 2 },
    metricsPrefix: 'billing_',
  },
  {
    name: 'admin',
    package: '@wb/admin-monitoring',
    port: 3006,
    routes: [
      { path: '/api/admin/stats' },
      { path: '/api/admin/activity' },
      { path: '/api/admin/system' },
      { path: '/api/admin/docker' },
      { path: '/api/admin/update' },
    ],
    needs: { postgres: { schema: 'admin' }, nats: { consumers: ['admin-users', 'admin-boards', 'admin-subscriptions', 'admin-payments', 'admin-audit'], publishes: false }, services: ['auth'] },
    reachedBy: { ADMIN_URL: '' },
    settings: { secrets: [...COMMON_SECRETS, 'LOCAL_SUPERVISOR_TOKEN'], required: ['DATABASE_URL', 'AUTH_JWKS_URL'] },
    probes: probes(),
    nodeFlags: [],
    resources: { requests: { cpu: '50m', memory: '160Mi' }, limits: { memory: '384Mi' } },
    scaling: { replicas: 1 },
    metricsPrefix: 'admin_',
  },
  {
    name: 'export',
    package: '@wb/export',
    port: 3007,
    routes: [{ path: '/api/export' }],
    needs: {
      postgres: { schema: 'export' },
      nats: { consumers: ['export-entitlements'], publishes: false },
      services: ['auth', 'boards', 'realtime'],
    },
    reachedBy: { EXPORT_URL: '' },
    settings: { secrets: COMMON_SECRETS, required: ['DATABASE_URL', 'AUTH_JWKS_URL', 'BOARDS_INTERNAL_URL', 'REALTIME_INTERNAL_URL'] },
    probes: probes(),
    nodeFlags: [],
    resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '2Gi' } },
    scaling: { replicas: 2, autoscale: { min: 2, max: 8, cpuPercent: 70 } },
    metricsPrefix: 'export_',
  },
  {
    name: 'gateway',
    package: '@wb/gateway',
    port: 8080,
    routes: [],
    needs: { services: ['auth', 'boards', 'realtime', 'billing', 'admin', 'export'] },
    reachedBy: {},
    settings: { secrets: ['INTERNAL_TOKEN'], required: [] },
    probes: probes(30),
    nodeFlags: [],
    resources: { requests: { cpu: '200m', memory: '192Mi' }, limits: { memory: '512Mi' } },
    scaling: { replicas: 2, autoscale: { min: 2, max: 10, cpuPercent: 70 } },
    metricsPrefix: 'gateway_',
  },
] as const satisfies readonly ServiceTopology[];

export type Topology = typeof TOPOLOGY;
