/** Header of the board page (§2): back link, title, participants, object count, owner tools, user name. */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ArrowLeftIcon, HistoryIcon, SaveIcon, Share2Icon } from 'lucide-react';
import type { BoardBackground } from '@wb/contracts';
import { IconButton } from '../../../components/ui/Button.tsx';
import { BackgroundPicker } from './BackgroundPicker.tsx';
import { ParticipantsMenu } from './ParticipantsMenu.tsx';
import type { Participant } from './presence.ts';
import { OWN } from './texts.ts';
import styles from './boardPage.module.css';

export interface OwnerActions {
  onAccess(): void;
  onSave(): void;
  saving: boolean;
  background: BoardBackground;
  onBackground(bg: BoardBackground): void;
  onSnapshots(): void;
  exportMenu: ReactNode;
}

export function BoardHeader(props: {
  title: string;
  participants: Participant[];
  objectCount: number;
  userName: string | null;
  roleLabel: string | null;
  owner: OwnerActions | null;
}) {
  const { title, participants, objectCount, userName, roleLabel, owner } = props;
  return (
    <header className={styles.header} data-testid="board-header">
      <Link to="/dashboard" className={styles.back} data-testid="board-back" aria-label={OWN.backToBoards}>
        <ArrowLeftIcon size={18} aria-hidden="true" />
        <span className={styles.hideMobile}>{OWN.backToBoards}</span>
      </Link>
      <h1 className={styles.title} data-testid="board-title" title={title}>
        {title}
      </h1>
      <ParticipantsMenu participants={participants} />
      <span className={`${styles.count} ${styles.hideMobile}`} data-testid="header-object-count">
        {OWN.objects}: {objectCount}
      </span>
      {roleLabel ? (
        <span className={styles.roleBadge} data-testid="role-label">
          {roleLabel}
        </span>
      ) : null}
      <div className={styles.spacer} />
      {owner ? (
        <div className={styles.ownerTools} data-testid="owner-tools">
          <IconButton plain tooltip className={styles.headerButton} onClick={owner.onAccess} data-testid="open-access" label={OWN.access}>
            <Share2Icon size={16} aria-hidden="true" />
          </IconButton>
          {owner.exportMenu}
          <IconButton
            plain
            tooltip
            className={styles.headerButton}
            onClick={owner.onSave}
            disabled={owner.saving}
            data-testid="save-board"
            label={OWN.save}
          >
            <SaveIcon size={16} aria-hidden="true" />
          </IconButton>
          <BackgroundPicker value={owner.background} onChange={owner.onBackground} />
          <IconButton plain tooltip className={styles.headerButton} onClick={owner.onSnapshots} data-testid="open-snapshots" label={OWN.snapshots}>
            <HistoryIcon size={16} aria-hidden="true" />
          </IconButton>
        </div>
      ) : null}
      {userName ? (
        <span className={styles.userName} data-testid="board-user-name" title={userName}>
          {userName}
        </span>
      ) : null}
    </header>
  );
}
