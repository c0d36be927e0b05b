/**
 * Reactions of anonymous link visitors are rate-limited per pseudonym and per address, so one
 * visitor cannot flood a board with toggles by rotating its `anon` id. Signed-in users are
 * limited by the per-socket message rate only.
 */
import { KeyedLimiter } from '../domain/rate-limit.ts';
import type { Extension, Identity } from '../core/types.ts';

const PER_VISITOR = { perSecond: 2, burst: 10 };
const PER_ADDRESS = { perSecond: 10, burst: 40 };

export class ReactionLimits implements Extension {
  readonly name = 'reaction-limits';
  private readonly visitors = new KeyedLimiter(PER_VISITOR);
  private readonly addresses = new KeyedLimiter(PER_ADDRESS);

  constructor(private readonly now: () => number = Date.now) {}

  allowReaction(who: Identity): boolean {
    if (who.userId !== null) return true;
    const t = this.now();
    const visitorOk = this.visitors.allow(who.reactorId, t);
    return (who.address ? this.addresses.allow(who.address, t) : true) && visitorOk;
  }
}
