/** The folder/tag colour picker: the palette of §9, or any colour (react-colorful) with its hex. */
import { useState } from 'react';
import { HexColorInput, HexColorPicker } from 'react-colorful';
import { TAG_PALETTE } from '@wb/contracts/constants';
import { CheckIcon } from 'lucide-react';
import { Button } from '../../components/ui/index.ts';
import styles from './ColorChoice.module.css';
import { OWN } from './texts.ts';

export function ColorChoice({
  value,
  onChange,
  testId,
}: {
  value: string;
  onChange: (c: string) => void;
  testId?: string;
}) {
  const upper = value.toUpperCase();
  const isPalette = (TAG_PALETTE as readonly string[]).includes(upper);
  const [custom, setCustom] = useState(!isPalette);
  return (
    <div className={styles.choice} data-testid={testId}>
      <div className={styles.swatches} role="radiogroup">
        {TAG_PALETTE.map((c) => (
          <Button
            key={c}
            variant="plain"
            role="radio"
            aria-checked={upper === c}
            aria-label={c}
            title={c}
            className={styles.swatch}
            style={{ background: c }}
            onClick={() => {
              onChange(c);
              setCustom(false);
            }}
          >
            {upper === c ? <CheckIcon size={14} /> : null}
          </Button>
        ))}
        <Button
          variant="plain"
          className={`${styles.swatch} ${styles.custom}`}
          aria-label={OWN.customColor}
          aria-expanded={custom}
          data-active={!isPalette || undefined}
          title={OWN.customColor}
          style={!isPalette ? { background: value } : undefined}
          onClick={() => setCustom((v) => !v)}
        >
          {!isPalette ? <CheckIcon size={14} /> : null}
        </Button>
      </div>
      {custom ? (
        <div className={styles.customPanel}>
          <HexColorPicker color={value} onChange={(c) => onChange(c.toUpperCase())} />
          <label className={styles.hex}>
            <span>HEX</span>
            <HexColorInput
              className={styles.hexInput}
              color={value}
              prefixed
              onChange={(c) => onChange(c.toUpperCase())}
              data-testid={testId ? `${testId}-hex` : undefined}
            />
          </label>
        </div>
      ) : null}
    </div>
  );
}
