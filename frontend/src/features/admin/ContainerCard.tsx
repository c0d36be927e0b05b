import type { ContainerInfo } from '@wb/contracts';
import type { ReactNode } from 'react';
import {
  containerUptime,
  formatBytes,
  formatMb,
  formatPercent,
  stateTone,
  usageTone,
  type Tone,
} from './format.ts';
import { TEXTS } from './texts.ts';
import styles from './system.module.css';
import a from './admin.module.css';

const T = TEXTS.system;

/** A value the runtime did not give: a dash, never a made-up 0. */
function Value({ text, tone }: { text: string | null; tone?: Tone }) {
  if (text === null) return <span title={T.unknownTitle}>{T.unknown}</span>;
  return (
    <span className={tone ? styles[`tone_${tone}`] : undefined} data-tone={tone}>
      {text}
    </span>
  );
}

/** Spec §2 container card: name, state, image, id, uptime, CPU and memory, network, disk, error. */
export function ContainerCard({ c, now }: { c: ContainerInfo & { uptime?: number | null }; now: number }) {
  const facts: [string, ReactNode][] = [
    [T.image, c.image],
    [T.id, c.id.slice(0, 12)],
    [T.uptime, <Value key="u" text={containerUptime(c, now)} />],
    [T.cpuShort, <Value key="c" text={formatPercent(c.cpu.usage)} tone={usageTone(c.cpu.usage)} />],
    [
      T.memoryShort,
      <span key="m">
        <Value text={formatPercent(c.memory.usage)} tone={usageTone(c.memory.usage)} /> ·{' '}
        <Value text={formatMb(c.memory.used)} /> / <Value text={formatMb(c.memory.limit)} />
      </span>,
    ],
    [
      T.network,
      <span key="n">
        <Value text={formatBytes(c.network.rx)} /> / <Value text={formatBytes(c.network.tx)} />
      </span>,
    ],
    [T.diskSize, <Value key="d" text={formatMb(c.disk.size)} />],
  ];
  const tone = stateTone(c.state);
  return (
    <li className={styles.card} data-testid="container-card" data-state={c.state} data-tone={tone}>
      <div className={styles.cardHead}>
        <h3>{c.name}</h3>
        <span className={`${a.badge} ${a[tone]}`} data-testid="container-state">
          {c.state}
        </span>
      </div>
      <dl className={styles.facts}>
        {facts.map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {c.error ? (
        <p className={styles.cardError} data-testid="container-error">
          {c.error}
        </p>
      ) : null}
    </li>
  );
}
