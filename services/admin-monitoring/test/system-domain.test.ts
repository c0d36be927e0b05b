import { describe, expect, it } from 'vitest';
import { readCache } from '../src/domain/cache.ts';
import { cpuPercent, parseBootTime, parseRssBytes, parseStat, parseWriteBytes, stateWord, treeOf, type ProcStat } from '../src/domain/proc.ts';
import { cpuSample, cpuUsage, diskData, memoryData, mountOf } from '../src/domain/system.ts';
import { isStale, progressOf, statusOf, UPDATE_IDLE_STEP, UPDATE_STALE_MS } from '../src/domain/update.ts';

const GB = 1024 ** 3;
const core = (user: number, idle: number) => ({ times: { user, nice: 0, sys: 0, idle, irq: 0 } });

describe('system data rules', () => {
  it('CPU usage is the busy share between two samples of every core, 0 when the counters did not move', () => {
    const a = cpuSample([core(100, 900), core(50, 950)]);
    const b = cpuSample([core(400, 1_000), core(50, 1_050)]);
    // busy +300 of total +500 over both cores
    expect(cpuUsage(a, b)).toBe(60);
    expect(cpuUsage(a, a)).toBe(0);
    expect(cpuUsage(b, a)).toBe(0);
  });

  it('memory used is total minus available, in GB with the percentage', () => {
    expect(memoryData(16 * GB, 4 * GB)).toEqual({ usage: 75, used: 12, total: 16 });
    expect(memoryData(0, 0)).toEqual({ usage: 0, used: 0, total: 0 });
    // available above total (a kernel race) never gives a negative use
    expect(memoryData(8 * GB, 9 * GB).used).toBe(0);
  });

  it('disk usage as df counts it: reserved blocks do not hide a full disk', () => {
    const bsize = 4096;
    const blocks = (100 * GB) / bsize;
    // 60 GB used, 40 GB free of which 5 GB reserved for root
    const d = diskData({ bsize, blocks, bfree: (40 * GB) / bsize, bavail: (35 * GB) / bsize }, '/data');
    expect(d).toEqual({ usage: 63.2, used: 60, total: 100, mount: '/data' });
    expect(diskData({ bsize, blocks: 0, bfree: 0, bavail: 0 }, '/').usage).toBe(0);
  });

  it('the mount of a path is the longest mount point that holds it, with escaped spaces', () => {
    const table = ['overlay / overlay rw 0 0', 'tmpfs /tmp tmpfs rw 0 0', '/dev/sdb1 /mnt/my\\040disk ext4 rw 0 0', '/dev/sdc /var/lib ext4 rw 0 0'].join('\n');
    expect(mountOf('/tmp/x/y', table)).toBe('/tmp');
    expect(mountOf('/tmpfoo', table)).toBe('/');
    expect(mountOf('/mnt/my disk/a', table)).toBe('/mnt/my disk');
    expect(mountOf('/var/lib', table)).toBe('/var/lib');
    expect(mountOf('/home', '')).toBe('/');
  });
});

describe('the read cache', () => {
  it('serves a fresh read as cached until ttl, shares one read among concurrent cold calls, and drop forgets it', async () => {
    let now = 1_000;
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const cache = readCache(async () => {
      reads++;
      await gate;
      return { n: reads };
    }, 100, { now: () => now });
    const cold = [cache.get(), cache.get(), cache.get()];
    release();
    const answers = await Promise.all(cold);
    expect(reads).toBe(1);
    expect(answers.map((a) => a.cached)).toEqual([false, false, false]);
    now += 50;
    const warm = await cache.get();
    expect(warm).toMatchObject({ cached: true, value: { n: 1 } });
    expect(warm.at.getTime()).toBe(1_000);
    now += 60;
    expect(await cache.get()).toMatchObject({ cached: false, value: { n: 2 } });
    cache.drop();
    expect(await cache.get()).toMatchObject({ cached: false, value: { n: 3 } });
  });

  it('does not keep an answer that says the read failed', async () => {
    let reads = 0;
    const cache = readCache(async () => ({ error: reads++ === 0 ? 'нет связи' : undefined }), 60_000, { keep: (v) => !v.error });
    expect((await cache.get()).value.error).toBe('нет связи');
    expect(await cache.get()).toMatchObject({ cached: false, value: { error: undefined } });
    expect((await cache.get()).cached).toBe(true);
  });

  it('a read in flight when the cache is dropped answers its callers but is not kept', async () => {
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const cache = readCache(async () => {
      reads++;
      if (reads === 1) await gate;
      return reads;
    }, 60_000);
    const first = cache.get();
    cache.drop();
    release();
    expect((await first).value).toBe(1);
    expect(await cache.get()).toMatchObject({ cached: false, value: 2 });
  });
});

describe('system update rules', () => {
  it('progress is the share of steps done, below 100 until the end', () => {
    expect(progressOf(0, 8)).toBe(0);
    expect(progressOf(4, 8)).toBe(50);
    expect(progressOf(7, 8)).toBe(87);
    expect(progressOf(8, 8)).toBe(99);
    expect(progressOf(0, 0)).toBe(0);
  });

  it('a runner silent longer than the limit is stale', () => {
    const t = new Date('2026-01-01T00:00:00Z');
    expect(isStale(t, new Date(t.getTime() + UPDATE_STALE_MS))).toBe(false);
    expect(isStale(t, new Date(t.getTime() + UPDATE_STALE_MS + 1))).toBe(true);
  });

  it('the status before any update, and of a failed one', () => {
    expect(statusOf(undefined)).toMatchObject({ is_running: false, current_step: UPDATE_IDLE_STEP, progress: 0 });
    const failed = statusOf({ is_running: false, current_step: 'Перезапуск сервиса boards', progress: 25, error: 'сбой', started_at: new Date(0), finished_at: new Date(1000) });
    expect(failed).toEqual({ is_running: false, current_step: 'Перезапуск сервиса boards', progress: 25, error: 'сбой', started_at: '1970-01-01T00:00:00.000Z', finished_at: '1970-01-01T00:00:01.000Z' });
  });
});

describe('/proc parsing', () => {
  it('reads a stat line whose command has spaces and parentheses', () => {
    const line = '4242 (node (my app)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 11 0 123456 1000000 5000 18446744073709551615';
    expect(parseStat(line)).toEqual({ pid: 4242, state: 'S', ppid: 1, ticks: 300, startTicks: 123456 });
    expect(parseStat('garbage')).toBeUndefined();
  });

  it('reads RSS, disk writes and boot time; maps kernel states to the panel words', () => {
    expect(parseRssBytes('Name:\tnode\nVmRSS:\t  20480 kB\n')).toBe(20480 * 1024);
    expect(parseRssBytes('Name:\tzombie\n')).toBe(0);
    expect(parseWriteBytes('rchar: 1\nwrite_bytes: 4096\n')).toBe(4096);
    expect(parseBootTime('cpu 1 2 3\nbtime 1700000000\n')).toBe(1_700_000_000);
    expect(['R', 'S', 'D', 'T', 'Z', undefined, 'W'].map(stateWord)).toEqual(['running', 'running', 'running', 'paused', 'exited', 'exited', 'unknown']);
  });

  it('a process tree is the root and everything below it; CPU is in percent of one core', () => {
    const st = (pid: number, ppid: number): ProcStat => ({ pid, ppid, state: 'S', ticks: 0, startTicks: 0 });
    const stats = new Map([st(1, 0), st(10, 1), st(11, 10), st(12, 10), st(20, 1)].map((s) => [s.pid, s]));
    expect(treeOf(10, stats).sort()).toEqual([10, 11, 12]);
    expect(treeOf(99, stats)).toEqual([]);
    expect(cpuPercent(100, 250, 1, 100)).toBe(150);
    expect(cpuPercent(250, 100, 1, 100)).toBe(0);
    expect(cpuPercent(0, 10, 0, 100)).toBe(0);
  });
});
