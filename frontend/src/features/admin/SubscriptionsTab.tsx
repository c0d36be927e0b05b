import type { SubscriptionView } from '@wb/contracts';
import { PlusIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button, ConfirmDialog, Table, type TableColumn } from '../../components/ui/index.ts';
import { failWith, logFailure, succeed } from './alerts.ts';
import { useGetAdminSubscriptionsQuery, useRevokeSubscriptionMutation } from './adminApi.ts';
import { ExtendDialog } from './ExtendDialog.tsx';
import { SearchBox, useSearchChange } from './SearchBox.tsx';
import { SPEC_TEXTS, TAB_TITLES } from './specTexts.ts';
import { SubscriptionEditor, type SubscriptionEditorMode } from './SubscriptionEditor.tsx';
import { STATUS_LABELS, TEXTS, formatDate } from './texts.ts';
import a from './admin.module.css';

const T = TEXTS.subscriptions;
const STATUS_TONE = { active: a.green, grace: a.yellow, expired: a.red } as const;

/** Spec §2 Подписки: create, search, the table (calculated status, §4), edit, extend and revoke. */
export function SubscriptionsTab({ onSearchChange }: { onSearchChange: () => void }) {
  const [search, setSearch] = useState('');
  const { data: subs, error } = useGetAdminSubscriptionsQuery(search, { refetchOnMountOrArgChange: true });
  const [editor, setEditor] = useState<SubscriptionEditorMode | null>(null);
  const [extending, setExtending] = useState<SubscriptionView | null>(null);
  const [revoking, setRevoking] = useState<SubscriptionView | null>(null);
  const [revoke] = useRevokeSubscriptionMutation();
  useSearchChange(search, onSearchChange);
  useEffect(() => {
    if (error) logFailure('subscriptions', error);
  }, [error]);

  const who = (s: SubscriptionView) => s.user_name ?? TEXTS.unknownUser;
  const columns: TableColumn<SubscriptionView>[] = [
    { key: 'user', header: T.user, cell: who },
    { key: 'plan', header: T.plan, cell: (s) => s.plan_name },
    {
      key: 'status',
      header: T.status,
      cell: (s) => (
        <span className={`${a.badge} ${STATUS_TONE[s.calculated_status]}`} data-testid="subscription-status">
          {STATUS_LABELS[s.calculated_status]}
        </span>
      ),
    },
    {
      key: 'expires',
      header: T.expires,
      cell: (s) => <span data-testid="subscription-expires">{formatDate(s.expires_at)}</span>,
    },
    {
      key: 'actions',
      header: T.actions,
      align: 'end',
      cell: (s) => (
        <div className={a.actions}>
          <Button
            size="sm"
            onClick={() => setEditor({ kind: 'edit', subscription: s })}
            aria-label={`${T.edit}: ${who(s)}`}
            data-testid="subscription-edit"
          >
            {T.edit}
          </Button>
          <Button
            size="sm"
            onClick={() => setExtending(s)}
            aria-label={`${T.extend}: ${who(s)}`}
            data-testid="subscription-extend"
          >
            {T.extend}
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={() => setRevoking(s)}
            aria-label={`${T.revoke}: ${who(s)}`}
            data-testid="subscription-revoke"
          >
            {T.revoke}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div>
      <div className={a.toolbar}>
        <SearchBox id="subscriptions-search" label={T.search} onSearch={setSearch} />
        <Button
          variant="primary"
          onClick={() => setEditor({ kind: 'create' })}
          data-testid="subscription-create"
        >
          <PlusIcon size={16} aria-hidden="true" /> {T.create}
        </Button>
      </div>
      <Table
        caption={TAB_TITLES.subscriptions}
        hideCaption
        columns={columns}
        rows={subs ?? []}
        rowKey={(s) => s.id}
        rowTestId={() => 'subscription-row'}
        empty={subs ? T.empty : '…'}
        testId="subscriptions-table"
        cards
      />
      {editor ? <SubscriptionEditor mode={editor} onClose={() => setEditor(null)} /> : null}
      {extending ? <ExtendDialog subscription={extending} onClose={() => setExtending(null)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title={T.revokeTitle}
          message={SPEC_TEXTS.confirmRevoke}
          confirmLabel={T.revoke}
          danger
          testId="confirm-revoke"
          confirmTestId="confirm-revoke-ok"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            try {
              await revoke(revoking.id).unwrap();
              succeed(T.revoked);
            } catch (err) {
              failWith(SPEC_TEXTS.revokeError, err);
            }
          }}
        />
      ) : null}
    </div>
  );
}
