import { FREE_PLAN_NAME, type AdminUser } from '@wb/contracts';
import { useEffect, useState } from 'react';
import { useAppSelector } from '../../app/store.ts';
import { Button, ConfirmDialog, Table, type TableColumn } from '../../components/ui/index.ts';
import { selectUser } from '../auth/authSlice.ts';
import { failWith, logFailure, succeed } from './alerts.ts';
import { useDeleteUserMutation, useGetAdminUsersQuery } from './adminApi.ts';
import { SearchBox, useSearchChange } from './SearchBox.tsx';
import { SPEC_TEXTS, TAB_TITLES } from './specTexts.ts';
import { SubscriptionEditor } from './SubscriptionEditor.tsx';
import { TEXTS, formatDate } from './texts.ts';
import { UserEditor } from './UserEditor.tsx';
import a from './admin.module.css';

const T = TEXTS.users;

/** Spec §2 Пользователи: search, the table, and edit, delete and add-subscription actions. */
export function UsersTab({ onSearchChange }: { onSearchChange: () => void }) {
  const me = useAppSelector(selectUser);
  const [search, setSearch] = useState('');
  const { data, error } = useGetAdminUsersQuery(search, { refetchOnMountOrArgChange: true });
  const users = data?.users;
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [subscribing, setSubscribing] = useState<AdminUser | null>(null);
  const [remove] = useDeleteUserMutation();
  useEffect(() => {
    if (error) logFailure('users', error);
  }, [error]);
  useSearchChange(search, onSearchChange);

  const columns: TableColumn<AdminUser>[] = [
    { key: 'name', header: T.name, cell: (u) => u.name },
    { key: 'email', header: T.email, cell: (u) => u.email },
    { key: 'plan', header: T.plan, cell: (u) => u.plan_name || FREE_PLAN_NAME },
    { key: 'boards', header: T.boards, cell: (u) => u.boards_count, align: 'end' },
    { key: 'created', header: T.registered, cell: (u) => formatDate(u.created_at) },
    {
      key: 'actions',
      header: T.actions,
      align: 'end',
      cell: (u) => (
        <div className={a.actions}>
          <Button
            size="sm"
            onClick={() => setEditing(u)}
            aria-label={`${T.edit}: ${u.email}`}
            data-testid="user-edit"
          >
            {T.edit}
          </Button>
          <Button
            size="sm"
            onClick={() => setSubscribing(u)}
            aria-label={`${T.addSubscription}: ${u.email}`}
            data-testid="user-subscribe"
          >
            {T.addSubscription}
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={() => setDeleting(u)}
            disabled={u.id === me?.id}
            title={u.id === me?.id ? T.self : undefined}
            aria-label={`${T.delete}: ${u.email}`}
            data-testid="user-delete"
          >
            {T.delete}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div>
      <div className={a.toolbar}>
        <SearchBox id="users-search" label={T.search} onSearch={setSearch} />
      </div>
      <Table
        caption={TAB_TITLES.users}
        hideCaption
        columns={columns}
        rows={users ?? []}
        rowKey={(u) => u.id}
        rowTestId={() => 'user-row'}
        empty={users ? T.empty : '…'}
        testId="users-table"
        cards
      />
      {data && data.total > data.users.length ? (
        <p className={a.muted} data-testid="users-cut">
          {T.cut(data.users.length, data.total)}
        </p>
      ) : null}
      {editing ? <UserEditor user={editing} onClose={() => setEditing(null)} /> : null}
      {subscribing ? (
        <SubscriptionEditor
          mode={{ kind: 'create', user: subscribing }}
          onClose={() => setSubscribing(null)}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={T.deleteTitle}
          message={SPEC_TEXTS.confirmDeleteUser}
          confirmLabel={T.delete}
          danger
          testId="confirm-delete-user"
          confirmTestId="confirm-delete-user-ok"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await remove(deleting.id).unwrap();
              succeed(T.deleted);
            } catch (err) {
              failWith(SPEC_TEXTS.userDeleteError, err);
            }
          }}
        />
      ) : null}
    </div>
  );
}
