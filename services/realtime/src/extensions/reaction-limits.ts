/**
 * Reactions are rate-limited: a signed-in user per board (a viewer sent 6000 in 6.7 s, each a store
 * write and a broadcast: issue 32 item 5), an anonymous link visitor per pseudonym and per address,
 * so one visitor cannot flood a board with toggles by rotating its `anon` id. Both the socket
 * message and POST /yjs/reactions pass through here (RealtimeServer.react).
 */
import { KeyedLimiter } from '../domain/rate-limit.ts';
import type { Extension, Identity } from '../core/types.ts';

const PER_VISITOR = { perSecond: 2, burst: 10 };
const PER_ADDRESS = { perSecond: 10, burst: 40 };
/** The same pace as a visitor's: a person toggles a few reactions a second at most. */
const PER_USER_AND_BOARD = { perSecond: 2, burst: 10 };

export class ReactionLimits implements Extension {
  readonly name = 'reaction-limits';
  private readonly visitors = new KeyedLimiter(PER_VISITOR);
  private readonly addresses = new KeyedLimiter(PER_ADDRESS);
  private readonly users = new KeyedLimiter(PER_USER_AND_BOARD);

  constructor(private readonly now: () => number = Date.now) {}

  allowReaction(who: Identity): boolean {
    const t = this.now();
    if (who.userId !== null) return this.users.allow(`${who.board.id}:${who.userId}`, t);
    const visitorOk = this.visitors.allow(who.reactorId, t);
    return (who.address ? this.addresses.allow(who.address, t) : true) && visitorOk;
  }
}
