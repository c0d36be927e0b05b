import { ArrowLeftIcon, RefreshCwIcon } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/index.ts';
import { SPEC_TEXTS } from './specTexts.ts';
import { TEXTS } from './texts.ts';
import styles from './admin.module.css';

/** Spec §2: a back link, the 'Обновить' system-update button, the admin's name and 'Администратор'. */
export function AdminHeader({
  name,
  onUpdate,
  updating,
}: {
  name: string;
  onUpdate: () => void;
  updating: boolean;
}) {
  return (
    <header className="app-header">
      <div className="app-header__inner">
        <Link to="/dashboard" className="back-link" data-testid="admin-back">
          <ArrowLeftIcon size={16} aria-hidden="true" />{' '}
          <span className={styles.backText}>{TEXTS.backLink}</span>
        </Link>
        <div className="app-header__spacer" />
        <Button
          variant="secondary"
          size="sm"
          onClick={onUpdate}
          disabled={updating}
          data-testid="admin-update"
        >
          <RefreshCwIcon size={16} aria-hidden="true" /> {SPEC_TEXTS.updateButton}
        </Button>
        <span className="admin-who" data-testid="admin-who">
          <span className={styles.whoName}>{name}</span>{' '}
          <span className="badge">{SPEC_TEXTS.adminLabel}</span>
        </span>
      </div>
    </header>
  );
}
