import { describe, expect, it } from 'vitest';
import { cpuPercent, diskMb, mapBounded, memoryOf, networkOf, uptimeSeconds } from '../src/runtime/docker-stats.ts';
import { isLeftover, recreateOptions, servicePort } from '../src/runtime/docker-restart.ts';

// The arithmetic of one stats sample, as `docker stats` does it (docker/cli stats_helpers.go); the
// numbers of real containers are checked against the engine in docker-runtime.test.ts.
const cpu = (total: number, system: number, online = 2) => ({ cpu_usage: { total_usage: total, percpu_usage: [], usage_in_usermode: 0, usage_in_kernelmode: 0 }, system_cpu_usage: system, online_cpus: online, throttling_data: { periods: 0, throttled_periods: 0, throttled_time: 0 } });

describe('docker stats arithmetic', () => {
  it('CPU %: the container’s share of the host’s CPU time times the CPUs online (100 = one core)', () => {
    // 0.5 s of CPU over 1 s of wall on 2 cores (system time counts both: 2 s) = half a core.
    expect(cpuPercent({ cpu_stats: cpu(1_500_000_000, 12_000_000_000), precpu_stats: cpu(1_000_000_000, 10_000_000_000) })).toBe(50);
    // One core busy on a 2-core host: 100 %, as `docker stats` shows it.
    expect(cpuPercent({ cpu_stats: cpu(2e9, 12e9), precpu_stats: cpu(1e9, 10e9) })).toBe(100);
    // No previous reading (a container sampled at its start): 0, not NaN.
    expect(cpuPercent({ cpu_stats: cpu(2e9, 12e9), precpu_stats: cpu(0, 0) })).toBe(0);
    // online_cpus absent (old engines): the per-CPU list's length.
    const old = { ...cpu(3e9, 14e9, 0), cpu_usage: { ...cpu(3e9, 14e9).cpu_usage, percpu_usage: [1, 2, 3, 4] } };
    expect(cpuPercent({ cpu_stats: old, precpu_stats: cpu(1e9, 10e9) })).toBe(200);
  });

  it('memory: usage without the inactive page cache (cgroup v1 and v2), in MB and percent of the limit', () => {
    const MB = 1024 * 1024;
    const v1 = memoryOf({ memory_stats: { usage: 120 * MB, limit: 1000 * MB, max_usage: 0, failcnt: 0, stats: { total_inactive_file: 20 * MB } as never } });
    expect(v1).toEqual({ usage: 10, used: 100, limit: 1000 });
    const v2 = memoryOf({ memory_stats: { usage: 60 * MB, limit: 400 * MB, max_usage: 0, failcnt: 0, stats: { inactive_file: 10 * MB } as never } });
    expect(v2).toEqual({ usage: 12.5, used: 50, limit: 400 });
    // A stopped container's sample has no usage: unknown, not 0.
    expect(memoryOf({ memory_stats: {} as never })).toEqual({ usage: null, used: null, limit: null });
  });

  it('network: summed over the container’s interfaces; on the host’s network it has none (null)', () => {
    const n = (rx: number, tx: number) => ({ rx_bytes: rx, tx_bytes: tx, rx_dropped: 0, rx_errors: 0, rx_packets: 0, tx_dropped: 0, tx_errors: 0, tx_packets: 0 });
    expect(networkOf({ networks: { eth0: n(100, 50), eth1: n(1, 2) } })).toEqual({ rx: 101, tx: 52 });
    expect(networkOf({ networks: undefined as never })).toEqual({ rx: null, tx: null });
  });

  it('disk, uptime and the bounded map', async () => {
    expect(diskMb(5 * 1024 * 1024)).toBe(5);
    expect(diskMb(undefined)).toBeNull();
    expect(uptimeSeconds(true, '2026-01-01T00:00:00Z', Date.parse('2026-01-02T01:00:00Z'))).toBe(90_000);
    expect(uptimeSeconds(false, '2026-01-01T00:00:00Z')).toBeNull();
    expect(uptimeSeconds(true, '0001-01-01T00:00:00Z')).toBeNull();
    let running = 0;
    let peak = 0;
    const out = await mapBounded([1, 2, 3, 4, 5, 6, 7], 3, async (x) => {
      peak = Math.max(peak, ++running);
      // Yield to the event loop: every worker the bound allows has started before any finishes.
      await new Promise((r) => setImmediate(r));
      running--;
      return x * 2;
    });
    expect(out).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(peak).toBe(3);
  });

  it('recreation keeps the configuration, drops the host’s hostname, finds the port', () => {
    const info = {
      Id: 'a'.repeat(64),
      Name: '/wb-boards',
      Config: { Hostname: 'thehost', Domainname: '', Image: 'whiteboard-boards:0.1.0', Env: ['PORT=3999', 'X=1'], Labels: { 'wb.platform': 'whiteboard' }, ExposedPorts: { '3002/tcp': {} } },
      HostConfig: { NetworkMode: 'host', ReadonlyRootfs: true },
      NetworkSettings: { Networks: { host: {} } },
    } as never;
    const o = recreateOptions(info, 'wb-boards.next');
    expect(o).toMatchObject({ name: 'wb-boards.next', Image: 'whiteboard-boards:0.1.0', Env: ['PORT=3999', 'X=1'], Labels: { 'wb.platform': 'whiteboard' } });
    expect(o.HostConfig).toEqual({ NetworkMode: 'host', ReadonlyRootfs: true });
    expect(o.Hostname).toBeUndefined();
    expect(o.NetworkingConfig).toBeUndefined();
    expect(servicePort(info)).toBe(3999);
    expect(isLeftover('/wb-boards.next')).toBe(true);
    expect(isLeftover('wb-boards.retired')).toBe(true);
    expect(isLeftover('wb-boards')).toBe(false);
  });
});
