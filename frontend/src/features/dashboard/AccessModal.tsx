/** Access settings of one board (§2): the master switch, the three role links, rotation and copying. */
import { useState } from 'react';
import { notify } from '../../lib/notify.ts';
import { useSetRoleLinksMutation, useSetSharingMutation } from './api.ts';
import { errorText } from './errors.ts';
import { CopyIcon, LinkIcon, RefreshCwIcon } from 'lucide-react';
import { enabledRoles, SHARE_ROLES, shareLink, toggleRole, tokenOf } from './logic.ts';
import { OWN, ROLE_LABELS, SPEC } from './texts.ts';
import type { BoardListItem, ShareRole } from './types.ts';
import { Modal, Switch } from './ui.tsx';

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
}

const DASHBOARD_TEXTS: AccessModalTexts = {
  sharing: (enabled) => (enabled ? OWN.sharingOn : OWN.sharingOff),
  role: (role, enabled) => (enabled ? OWN.roleOn(ROLE_LABELS[role]) : OWN.roleDisabled(ROLE_LABELS[role])),
  rotated: () => OWN.linksRotated,
  sharingError: SPEC.sharingError,
  linksChangeError: SPEC.linksChangeError,
  rotateError: SPEC.linkRotateError,
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

  return (
    <Modal title={OWN.accessTitle} subtitle={board.title} onClose={onClose} testId="access-modal" size="lg">
      <div className="access">
        <div className={`access__master${on ? ' access__master--on' : ''}`}>
          <span className="access__master-icon">
            <LinkIcon size={18} />
          </span>
          <div className="access__master-text">
            <strong>{OWN.linkSharing}</strong>
            <span>{on ? OWN.linkSharingHint : OWN.linkSharingOffHint}</span>
          </div>
          <Switch
            checked={on}
            onChange={toggleSharing}
            disabled={busy}
            label={OWN.linkSharing}
            testId="sharing-switch"
          />
        </div>

        <ul className={`access__roles${on ? '' : ' access__roles--off'}`} data-testid="access-roles">
          {SHARE_ROLES.map((role) => {
            const token = tokenOf(board, role);
            const roleOn = token !== null;
            return (
              <li
                key={role}
                className="access-role"
                data-testid={`access-role-${role}`}
                data-enabled={roleOn}
              >
                <div className="access-role__head">
                  <div className="access-role__text">
                    <strong>{ROLE_LABELS[role]}</strong>
                    <span>{ROLE_HINTS[role]}</span>
                  </div>
                  <Switch
                    checked={roleOn}
                    onChange={(v) => toggle(role, v)}
                    disabled={busy}
                    label={ROLE_LABELS[role]}
                    testId={`role-switch-${role}`}
                  />
                </div>
                {roleOn && token ? (
                  <div className="access-role__link">
                    <input
                      className="input input--sm input--mono"
                      readOnly
                      value={shareLink(window.location.origin, board.id, token)}
                      onFocus={(e) => e.currentTarget.select()}
                      aria-label={ROLE_LABELS[role]}
                      data-testid={`role-link-${role}`}
                    />
                    <button
                      type="button"
                      className="btn btn--secondary btn--sm"
                      onClick={() => copy(token)}
                      data-testid={`copy-link-${role}`}
                    >
                      <CopyIcon size={15} />
                      {OWN.copy}
                    </button>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>

        <div className="access__footer">
          <span className="access__hint">{OWN.rotateHint}</span>
          <button
            type="button"
            className="btn btn--ghost btn--sm"
            onClick={rotate}
            disabled={busy || roles.length === 0}
            data-testid="rotate-links"
          >
            <RefreshCwIcon size={15} />
            {OWN.rotate}
          </button>
        </div>
      </div>
    </Modal>
  );
}
