// Artillery processor of http.yml (loaded with import()).
import { randomUUID } from 'node:crypto';

/** A fresh account per virtual user (the address is unique per run and user, never a real mailbox). */
export function newAccount(context, _events, done) {
  const id = randomUUID();
  context.vars.email = `lt-${id}@loadtest.invalid`;
  context.vars.password = `lt-${id.slice(0, 12)}`;
  context.vars.name = 'Нагрузочный тест';
  done();
}
