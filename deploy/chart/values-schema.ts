// The JSON schema of charts/whiteboard's values (values.schema.json): every object closed
// (additionalProperties: false), so a misspelt key fails `helm install` with its name, and every
// leaf typed, so a wrong type does too. The per-service block has one entry per manifest service.

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const bool: Schema = { type: 'boolean' };
const int = (minimum = 0): Schema => ({ type: 'integer', minimum });
const quantity: Schema = { type: ['string', 'number'], pattern: '^[0-9]+(\\.[0-9]+)?(m|Ki|Mi|Gi|Ti|k|M|G|T)?$' };
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});
const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
/** An existing Secret by name and key, or a literal value the chart puts into a Secret of its own. */
const secretRef = (key: string): Schema =>
  obj({ url: str, existingSecret: str, existingSecretKey: { type: 'string', default: key } });

const service: Schema = obj(
  {
    enabled: bool,
    replicas: int(1),
    autoscaling: obj({
      enabled: bool,
      minReplicas: int(1),
      maxReplicas: int(1),
      targetCPUUtilizationPercentage: { type: 'integer', minimum: 1, maximum: 100 },
    }),
    resources: obj({
      requests: obj({ cpu: quantity, memory: quantity }),
      limits: obj({ cpu: quantity, memory: quantity }),
    }),
    env: stringMap,
  },
  ['enabled', 'replicas', 'autoscaling', 'resources'],
);

export function valuesSchema(serviceNames: readonly string[]): Schema {
  return {
    $schema: 'https://json-schema.org/draft-07/schema#',
    title: 'whiteboard chart values',
    ...obj({
      nameOverride: str,
      fullnameOverride: str,
      image: obj({
        registry: str,
        repository: { type: 'string', minLength: 1 },
        tag: str,
        pullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'] },
      }),
      imagePullSecrets: { type: 'array', items: obj({ name: str }, ['name']) },
      publicUrl: { type: 'string', pattern: '^https?://' },
      ingress: obj({
        enabled: bool,
        className: str,
        host: str,
        annotations: stringMap,
        tls: obj({ enabled: bool, secretName: str }),
      }),
      database: secretRef('DATABASE_URL'),
      mongo: secretRef('MONGO_URL'),
      natsUrl: str,
      secrets: obj({ existingSecret: str }),
      networkPolicy: obj({
        enabled: bool,
        /** Ports the services may reach outside the release (PostgreSQL, MongoDB, NATS, SMTP, providers). */
        externalEgressPorts: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 65535 } },
        /** Namespace labels whose pods may scrape /metrics (Prometheus). */
        metricsNamespaceSelector: stringMap,
        /** Namespace labels of the ingress controller that reaches the gateway. */
        ingressNamespaceSelector: stringMap,
      }),
      monitoring: obj({
        serviceMonitor: obj({ enabled: bool, interval: str, labels: stringMap }),
        prometheusRules: obj({ enabled: bool, labels: stringMap }),
        dashboards: obj({ enabled: bool, labels: stringMap }),
      }),
      podAnnotations: stringMap,
      nodeSelector: stringMap,
      tolerations: { type: 'array', items: { type: 'object' } },
      services: obj(Object.fromEntries(serviceNames.map((n) => [n, service]))),
      // The vendored dependencies' values (each chart's own schema checks them); `enabled` switches one on.
      nats: { type: 'object', properties: { enabled: bool }, required: ['enabled'] },
      postgresql: { type: 'object', properties: { enabled: bool }, required: ['enabled'] },
      mongodb: { type: 'object', properties: { enabled: bool }, required: ['enabled'] },
    }),
  };
}
