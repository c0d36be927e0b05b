/** A tiny listener set: engine events that fire every frame reach only the components that follow them. */
export class Listeners {
  private readonly fns = new Set<() => void>();
  add(fn: () => void): () => void {
    this.fns.add(fn);
    return () => this.fns.delete(fn);
  }
  emit = (): void => {
    for (const fn of this.fns) fn();
  };
}
