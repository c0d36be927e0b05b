/**
 * A long press of one finger opens the context menu (issue 35 item 5: z-order, group and lock must
 * be reachable by touch; the canvas's touch-action: none keeps some browsers from making their own
 * long-press contextmenu). Held LONG_PRESS_MS without moving more than MOVE_PX, the press becomes
 * a 'contextmenu' event at the finger, which PointerInput answers as for a right click.
 */
const LONG_PRESS_MS = 500;
const MOVE_PX = 10;

export class LongPress {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private start: { id: number; x: number; y: number } | null = null;
  private fingers = 0;

  constructor(
    private readonly el: HTMLElement,
    /** Whether a long press should open the menu now (the select tool). */
    private readonly active: () => boolean,
  ) {
    el.addEventListener('pointerdown', this.down);
    el.addEventListener('pointermove', this.move);
    el.addEventListener('pointerup', this.up);
    el.addEventListener('pointercancel', this.up);
  }

  destroy(): void {
    this.stop();
    this.el.removeEventListener('pointerdown', this.down);
    this.el.removeEventListener('pointermove', this.move);
    this.el.removeEventListener('pointerup', this.up);
    this.el.removeEventListener('pointercancel', this.up);
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.start = null;
  }

  private readonly down = (e: PointerEvent): void => {
    if (e.pointerType !== 'touch') return;
    this.fingers++;
    this.stop();
    if (this.fingers !== 1 || !this.active()) return;
    const start = { id: e.pointerId, x: e.clientX, y: e.clientY };
    this.start = start;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: start.x, clientY: start.y, button: 2 }));
    }, LONG_PRESS_MS);
  };

  private readonly move = (e: PointerEvent): void => {
    const s = this.start;
    if (s && e.pointerId === s.id && Math.hypot(e.clientX - s.x, e.clientY - s.y) > MOVE_PX) this.stop();
  };

  private readonly up = (e: PointerEvent): void => {
    if (e.pointerType !== 'touch') return;
    this.fingers = Math.max(0, this.fingers - 1);
    this.stop();
  };
}
