import { formatPercent, usageTone } from './format.ts';
import styles from './system.module.css';

/** One usage gauge (CPU, memory, disk): a meter coloured at 70 % and 90 % (spec §4 Indicators). */
export function Gauge({
  id,
  label,
  usage,
  detail,
}: {
  id: string;
  label: string;
  usage: number;
  detail: string;
}) {
  const tone = usageTone(usage);
  const pct = formatPercent(usage) ?? '—';
  const width = Math.min(100, Math.max(0, usage));
  return (
    <div className={styles.gauge} data-testid={`gauge-${id}`} data-tone={tone}>
      <div className={styles.gaugeHead}>
        <span id={`gauge-${id}-label`}>{label}</span>
        <span className={styles.gaugeValue}>{pct}</span>
      </div>
      <div
        className={styles.bar}
        role="meter"
        aria-labelledby={`gauge-${id}-label`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(width)}
        aria-valuetext={pct}
      >
        <div className={`${styles.fill} ${styles[`fill_${tone}`]}`} style={{ width: `${width}%` }} />
      </div>
      <span className={styles.detail}>{detail}</span>
    </div>
  );
}
