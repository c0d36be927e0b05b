import { readFile, realpath, statfs } from 'node:fs/promises';
import os from 'node:os';
import type { SystemData } from '@wb/contracts';
import { cpuSample, cpuUsage, diskData, memoryData, mountOf, type CpuSample } from '../domain/system.ts';

/** When there is no earlier sample, CPU usage is measured over this long (the first read only). */
const FIRST_SAMPLE_MS = 250;

export type HostData = Omit<SystemData, 'cached' | 'cacheTime'>;

/**
 * Reads the host the service runs on (in a container: the node's CPU and memory as the kernel
 * reports them, the disk of DISK_PATH). CPU usage is the busy share since the previous read, so a
 * reader is kept per service; the first read samples over FIRST_SAMPLE_MS.
 */
export function hostReader(diskPath: string) {
  let last: { sample: CpuSample; at: number } | undefined;
  return async function readHost(): Promise<HostData> {
    let prev = last?.sample;
    if (!prev) {
      prev = cpuSample(os.cpus());
      await new Promise((r) => setTimeout(r, FIRST_SAMPLE_MS));
    }
    const sample = cpuSample(os.cpus());
    last = { sample, at: Date.now() };
    const cores = os.cpus().length;
    const path = await realpath(diskPath);
    const [stats, mounts] = await Promise.all([statfs(path), readFile('/proc/self/mounts', 'utf8').catch(() => '')]);
    return {
      cpu: { usage: cpuUsage(prev, sample), cores },
      // os.freemem() is the kernel's MemAvailable on Linux (libuv), not MemFree: page cache is not "used".
      memory: memoryData(os.totalmem(), os.freemem()),
      disk: diskData(stats, mountOf(path, mounts)),
    };
  };
}
