/** Access settings of one board (§2): the master switch, the three role links, rotation and copying. */
import { useState } from 'react';
import { Button, ConfirmDialog, Dialog, Switch } from '../../components/ui/index.ts';
import { notify } from '../../lib/notify.ts';
import { useSetRoleLinksMutation, useSetSharingMutation } from './api.ts';
import { errorText } from './errors.ts';
import { CopyIcon, LinkIcon, RefreshCwIcon } from 'lucide-react';
import { enabledRoles, SHARE_ROLES, shareLink, toggleRole, tokenOf } from './logic.ts';
import { OWN, ROLE_LABELS, SPEC } from './texts.ts';
import type { BoardListItem, ShareRole } from './types.ts';
import styles from './AccessModal.module.css';

const ROLE_HINTS: Record<ShareRole, string> = {
  viewer: OWN.roleViewerHint,
  guest: OWN.roleGuestHint,
  editor: OWN.roleEditorHint,
};

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // fall through to the selection-based copy
    }
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  const ok = document.execCommand('copy');
  ta.remove();
  if (!ok) throw new Error('copy failed');
}

/** Toasts of the modal; the board page passes its own (board-page.md §8), the dashboard uses these. */
export interface AccessModalTexts {
  sharing(enabled: boolean): string;
  role(role: ShareRole, enabled: boolean): string;
  rotated(roles: ShareRole[]): string;
  sharingError: string;
  linksChangeError: string;
  rotateError: string;
  /** The roles' names in the modal (the board page calls the guest link differently, product.md §2). */
  roleLabels: Record<ShareRole, string>;
}

const DASHBOARD_TEXTS: AccessModalTexts = {
  sharing: (enabled) => (enabled ? OWN.sharingOn : OWN.sharingOff),
  role: (role, enabled) => (enabled ? OWN.roleOn(ROLE_LABELS[role]) : OWN.roleDisabled(ROLE_LABELS[role])),
  rotated: () => OWN.linksRotated,
  sharingError: SPEC.sharingError,
  linksChangeError: SPEC.linksChangeError,
  rotateError: SPEC.linkRotateError,
  roleLabels: ROLE_LABELS,
};

export function AccessModal({
  board: initial,
  onClose,
  texts = DASHBOARD_TEXTS,
  onChanged,
}: {
  board: BoardListItem;
  onClose: () => void;
  texts?: AccessModalTexts;
  /** Called after every successful change (the board page reloads the board). */
  onChanged?: () => void;
}) {
  const [board, setBoard] = useState(initial);
  const [setSharing, sharingState] = useSetSharingMutation();
  const [setLinks, linksState] = useSetRoleLinksMutation();
  const [confirmRotate, setConfirmRotate] = useState(false);
  const busy = sharingState.isLoading || linksState.isLoading;
  const on = board.is_link_sharing_enabled;
  const roles = enabledRoles(board);

  const toggleSharing = async (enabled: boolean) => {
    try {
      const res = await setSharing({ id: board.id, enabled }).unwrap();
      setBoard(res.board);
      notify.success(texts.sharing(enabled));
      onChanged?.();
    } catch (err) {
      notify.error(errorText(err, texts.sharingError));
    }
  };

  const toggle = async (role: ShareRole, enabled: boolean) => {
    try {
      const res = await setLinks({ id: board.id, enabledRoles: toggleRole(roles, role, enabled) }).unwrap();
      setBoard(res.board);
      notify.success(texts.role(role, enabled));
      onChanged?.();
    } catch (err) {
      notify.error(errorText(err, texts.linksChangeError));
    }
  };

  const rotate = async () => {
    try {
      const res = await setLinks({ id: board.id, enabledRoles: roles, rotate: true }).unwrap();
      setBoard(res.board);
      notify.success(texts.rotated(roles));
      onChanged?.();
    } catch (err) {
      notify.error(errorText(err, texts.rotateError));
    }
  };

  const copy = async (token: string) => {
    try {
      await copyText(shareLink(window.location.origin, board.id, token));
      notify.success(SPEC.linkCopied);
    } catch {
      notify.error(SPEC.copyError);
    }
  };

  // With sharing off the server refuses every link, so none is shown and none can be copied; the role
  // switches stay, so the owner can choose the roles before turning sharing on.
  return (
    <Dialog title={OWN.accessTitle} subtitle={board.title} onClose={onClose} testId="access-modal" size="lg">
      <div className={styles.access}>
        <div className={`${styles.master}${on ? ` ${styles.masterOn}` : ''}`}>
          <span className={styles.masterIcon} aria-hidden="true">
            <LinkIcon size={18} />
          </span>
          <div className={styles.text}>
            <strong>{OWN.linkSharing}</strong>
            <span>{on ? OWN.linkSharingHint : OWN.linkSharingOffHint}</span>
          </div>
          <Switch
            checked={on}
            onCheckedChange={toggleSharing}
            disabled={busy}
            aria-label={OWN.linkSharing}
            testId="sharing-switch"
          />
        </div>

        <ul className={styles.roles} data-testid="access-roles" data-sharing={on}>
          {SHARE_ROLES.map((role) => {
            const token = tokenOf(board, role);
            const roleOn = token !== null;
            return (
              <li key={role} className={styles.role} data-testid={`access-role-${role}`} data-enabled={roleOn}>
                <div className={styles.roleHead}>
                  <div className={styles.roleText}>
                    <strong>{texts.roleLabels[role]}</strong>
                    <span>{ROLE_HINTS[role]}</span>
                  </div>
                  <Switch
                    checked={roleOn}
                    onCheckedChange={(v) => toggle(role, v)}
                    disabled={busy}
                    aria-label={texts.roleLabels[role]}
                    testId={`role-switch-${role}`}
                  />
                </div>
                {on && roleOn && token ? (
                  <div className={styles.link}>
                    <input
                      className={styles.linkInput}
                      readOnly
                      value={shareLink(window.location.origin, board.id, token)}
                      onFocus={(e) => e.currentTarget.select()}
                      aria-label={texts.roleLabels[role]}
                      data-testid={`role-link-${role}`}
                    />
                    <Button size="sm" onClick={() => void copy(token)} data-testid={`copy-link-${role}`}>
                      <CopyIcon size={15} aria-hidden="true" />
                      {OWN.copy}
                    </Button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>

        <div className={styles.footer}>
          <span className={styles.hint}>{OWN.rotateHint}</span>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setConfirmRotate(true)}
            disabled={busy || !on || roles.length === 0}
            data-testid="rotate-links"
          >
            <RefreshCwIcon size={15} aria-hidden="true" />
            {OWN.rotate}
          </Button>
        </div>
      </div>
      {confirmRotate ? (
        <ConfirmDialog
          title={OWN.rotateConfirmTitle}
          message={OWN.rotateConfirm}
          confirmLabel={OWN.rotate}
          danger
          onConfirm={rotate}
          onClose={() => setConfirmRotate(false)}
          testId="rotate-confirm"
          confirmTestId="rotate-confirm-ok"
        />
      ) : null}
    </Dialog>
  );
}
