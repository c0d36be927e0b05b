/**
 * What one service is to whoever runs it: the gateway (routes), the runners (ports, flags, who
 * reaches whom), the container images and the Helm chart (probes, resources, settings, the traffic a
 * NetworkPolicy allows), the docs' configuration table and the dashboards. Pure data: no service
 * code is imported, so the gateway and deploy tooling read it without importing a service.
 */
export interface ServiceTopology {
  /** Also the `<NAME>_URL` variable the gateway and others use, the logger's name and the chart's key. */
  name: ServiceName;
  /** The npm workspace package whose default export is the service definition; absent while planned. */
  package?: string;
  /** Port the service listens on when nothing else says (PORT). Unique across the topology. */
  port: number;
  /** Public paths the gateway sends to this service. */
  routes: RouteDecl[];
  needs: Needs;
  /** Environment others use to reach it: variable name → path appended to the service's base URL. */
  reachedBy: Record<string, string>;
  settings: Settings;
  probes: Probes;
  /** V8 flags when it runs as a process of its own (local cluster, containers); not in the embedded mode. */
  nodeFlags: string[];
  resources: Resources;
  scaling: Scaling;
  /**
   * The prefix of the metrics the service exports at /metrics beyond the shared families (http_,
   * process_, nodejs_, events_); deploy/test/metrics-names.test.ts checks it against a scrape.
   */
  metricsPrefix: string;
}

export type ServiceName = 'gateway' | 'auth' | 'boards' | 'realtime' | 'billing' | 'admin' | 'export';

export interface RouteDecl {
  /**
   * A path prefix of literal segments and `:param` segments (one segment each); it matches the path
   * itself and anything below it. The longest match wins, literal segments before parameters.
   */
  path: string;
  /** Also WebSocket upgrades under this prefix. */
  websocket?: boolean;
  /** With several replicas, the board id in the path picks the replica (rendezvous hashing). */
  byBoard?: boolean;
}

export interface Needs {
  /** Its own PostgreSQL schema (migrations run at start). */
  postgres?: { schema: string };
  /** MongoDB (cluster mode; the embedded mode keeps the same data in PostgreSQL). */
  mongo?: boolean;
  /** NATS: JetStream durable consumers on the stream WB_EVENTS, and core NATS subjects. */
  nats?: { consumers: string[]; publishes: boolean; coreSubjects?: string[] };
  /** Services it calls over HTTP (internal calls and JWKS). */
  services: ServiceName[];
}

export interface Settings {
  /** Settings whose values are credentials: taken from a Secret, never printed or put in a ConfigMap. */
  secrets: string[];
  /** Settings the service refuses to start without, in a deployment (the runners compose them locally). */
  required: string[];
}

export interface Probes {
  /** Liveness and the startup probe. */
  health: string;
  /** Readiness (dependencies reachable, migrations done). */
  ready: string;
  /** How long a start may take before the startup probe gives up. */
  startupSeconds: number;
}

export interface Resources {
  requests: { cpu: string; memory: string };
  limits: { memory: string };
}

export interface Scaling {
  replicas: number;
  /** An autoscaler between min and max replicas on CPU; absent: a fixed replica count. */
  autoscale?: { min: number; max: number; cpuPercent: number };
  /** Replicas are addressed one by one (a headless Service), as realtime's are by the gateway. */
  headless?: boolean;
}
