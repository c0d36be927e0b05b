import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ROUTES, reachEnvOf, TOPOLOGY, urlVariableOf } from '@wb/topology';
import { GatewayConfigSchema, routeFor } from '@wb/gateway';
import { GATEWAY_PACKAGE, loadDefinition, nodeFlagsOf, SERVICE_PACKAGES } from '../services.ts';

// The topology manifest (libs/topology) is the one place that says what each service is to whoever
// runs it. What still restates part of it in a service's own code (its definition's name, default
// port, reachedBy and settings) must agree with it; everything else reads it.
describe('the topology manifest', () => {
  const withPackage = TOPOLOGY.filter((s): s is Extract<(typeof TOPOLOGY)[number], { package: string }> => 'package' in s);

  it('lists every service package the runners start, in start order, the gateway last', () => {
    expect(SERVICE_PACKAGES).toEqual(withPackage.filter((s) => s.name !== 'gateway').map((s) => s.package));
    expect(GATEWAY_PACKAGE).toBe('@wb/gateway');
    expect(TOPOLOGY.at(-1)!.name).toBe('gateway');
  });

  it('gives every service its own port', () => {
    const ports = TOPOLOGY.map((s) => s.port);
    expect(new Set(ports).size).toBe(ports.length);
  });

  for (const s of withPackage) {
    describe(s.name, () => {
      it('agrees with the service definition: name, default port, how others reach it, settings', async () => {
        const def = await loadDefinition(s.package);
        expect(def.name).toBe(s.name);
        const shape = (def.configSchema as unknown as z.ZodObject).shape;
        expect((shape.PORT as z.ZodType).parse(undefined)).toBe(s.port);
        expect(def.reachedBy?.('http://svc:1') ?? {}).toEqual(reachEnvOf(s, 'http://svc:1'));
        for (const key of [...s.settings.secrets, ...s.settings.required]) expect(Object.keys(shape), key).toContain(key);
      });

      it('runs with the node flags of the manifest', () => {
        expect(nodeFlagsOf(s.package)).toEqual(s.nodeFlags);
      });
    });
  }

  it('is what the gateway routes by, and the gateway has a URL setting for every routed service', () => {
    for (const r of ROUTES) {
      const sample = r.path.replace(/:[^/]+/g, 'b1');
      expect(routeFor(sample), sample).toBe(r.service);
      expect(routeFor(`${sample}/x`), `${sample}/x`).toBe(r.service);
    }
    expect(routeFor('/internal/jwks')).toBeUndefined();
    const gatewayKeys = Object.keys(GatewayConfigSchema.shape);
    for (const s of TOPOLOGY.filter((t) => t.routes.length > 0)) expect(gatewayKeys).toContain(urlVariableOf(s.name));
  });
});
