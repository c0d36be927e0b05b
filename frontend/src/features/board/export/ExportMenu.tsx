/** The header's export dropdown (§2): PNG, SVG, and PDF when the plan has it. */
import { DownloadIcon } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/index.ts';
import { FORMAT_LABEL, MENU_LABEL, type ExportFormat } from './texts.ts';

export interface ExportMenuProps {
  formats: ExportFormat[];
  onChoose(format: ExportFormat): void;
  /** While an export runs the trigger is disabled. */
  disabled?: boolean;
  /** The header's button class, so the trigger looks like its neighbours. */
  triggerClassName?: string;
}

export function ExportMenu({ formats, onChoose, disabled, triggerClassName }: ExportMenuProps) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className={triggerClassName}
        disabled={disabled}
        data-testid="export-trigger"
        aria-label={MENU_LABEL}
        title={MENU_LABEL}
      >
        <DownloadIcon size={16} aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {formats.map((format) => (
          <DropdownMenuItem key={format} onSelect={() => onChoose(format)} data-testid={`export-${format}`}>
            {FORMAT_LABEL[format]}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
