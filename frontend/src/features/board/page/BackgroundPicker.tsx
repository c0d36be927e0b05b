import { PaletteIcon } from 'lucide-react';
import type { BoardBackground } from '@wb/contracts';
import { BACKGROUNDS } from '@wb/board-model';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../components/ui/index.ts';
import { OWN } from './texts.ts';
import styles from './boardPage.module.css';

export function BackgroundPicker({
  value,
  onChange,
}: {
  value: BoardBackground;
  onChange: (bg: BoardBackground) => void;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={styles.headerButton} data-testid="background-trigger" aria-label={OWN.background} title={OWN.background}>
        <PaletteIcon size={16} aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {BACKGROUNDS.map((bg) => (
          <DropdownMenuItem
            key={bg}
            onSelect={() => onChange(bg)}
            data-testid={`background-${bg}`}
            aria-current={bg === value ? 'true' : undefined}
          >
            <span className={`${styles.swatch} ${styles[`bg_${bg}`]}`} aria-hidden="true" />
            {OWN.backgrounds[bg]}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
