import { UsersIcon } from 'lucide-react';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../components/ui/index.ts';
import { participantsLabel, type Participant } from './presence.ts';
import { OWN } from './texts.ts';
import styles from './boardPage.module.css';

/** Header dropdown: who is on the board, each in their colour (§2, §9). */
export function ParticipantsMenu({ participants }: { participants: Participant[] }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={styles.headerButton} data-testid="participants-trigger" aria-label={`${OWN.participants}: ${participantsLabel(participants.length)}`}>
        <UsersIcon size={16} aria-hidden="true" />
        <span className={styles.hideMobile} data-testid="participants-count">
          {participantsLabel(participants.length)}
        </span>
        <span className={styles.onlyMobile} aria-hidden="true">
          {participants.length}
        </span>
      </DropdownMenuTrigger>
      <DropdownMenuContent data-testid="participants-list">
        {participants.map((p) => (
          <DropdownMenuItem key={p.id} data-testid="participant" data-user-id={p.id}>
            <span className={styles.dot} style={{ background: p.color }} aria-hidden="true" />
            <span data-testid="participant-name">{p.name}</span>
            {p.self ? <span className={styles.muted}>({OWN.you})</span> : null}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
