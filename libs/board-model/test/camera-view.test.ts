import { describe, expect, it } from 'vitest';
import {
  MAX_ZOOM,
  MIN_ZOOM,
  boardToScreen,
  cameraToView,
  fitCamera,
  isInView,
  revealCamera,
  storedView,
  viewToCamera,
  visibleArea,
} from '../src/index.ts';

describe('camera views (board coordinates)', () => {
  it('a view and a camera convert both ways, and the view centre sits in the middle of any viewport', () => {
    const cam = { x: 130, y: -40, scale: 2 };
    const view = cameraToView(cam, 800, 600);
    expect(view).toEqual({ x: (400 - 130) / 2, y: (300 + 40) / 2, zoom: 2 });
    expect(viewToCamera(view, 800, 600)).toEqual(cam);
    for (const [w, h] of [[375, 560], [1920, 1000]]) {
      const c = viewToCamera(view, w, h);
      expect(boardToScreen(c, view)).toEqual({ x: w / 2, y: h / 2 });
      expect(c.scale).toBe(2);
    }
  });

  it('a view outside the zoom limits is shown within them', () => {
    expect(viewToCamera({ x: 0, y: 0, zoom: 50 }, 100, 100).scale).toBe(MAX_ZOOM);
    expect(viewToCamera({ x: 0, y: 0, zoom: 0.001 }, 100, 100).scale).toBe(MIN_ZOOM);
  });

  it('a stored view (with a device) is read as is; the old stage offset is converted with today\'s size', () => {
    expect(storedView({ position_x: 50, position_y: -20, scale_x: 1.5, device: 'phone' }, 375, 500)).toEqual({ x: 50, y: -20, zoom: 1.5 });
    // Old format: stage at (400, 300) at scale 1 in an 800×600 window: the origin was at the centre.
    expect(storedView({ position_x: 400, position_y: 300, scale_x: 1 }, 800, 600)).toEqual({ x: 0, y: 0, zoom: 1 });
    expect(storedView({ position_x: 0, position_y: 0, scale_x: 2 }, 800, 600)).toEqual({ x: 200, y: 150, zoom: 2 });
  });
});

describe('fitting', () => {
  it('an empty board gets the default view: the origin centred at scale 1', () => {
    expect(fitCamera(null, 800, 600)).toEqual({ x: 400, y: 300, scale: 1 });
  });

  it('content is shown whole and centred, with a margin, never above scale 1 by default', () => {
    const b = { x: 1000, y: 500, width: 4000, height: 1000 };
    const cam = fitCamera(b, 1000, 800);
    expect(cam.scale).toBeCloseTo((1000 - 96) / 4000);
    expect(isInView(cam, 1000, 800, b)).toBe(true);
    expect(cameraToView(cam, 1000, 800)).toEqual({ x: 3000, y: 1000, zoom: cam.scale });
    const small = fitCamera({ x: 0, y: 0, width: 100, height: 100 }, 1000, 800);
    expect(small.scale).toBe(1);
    expect(fitCamera({ x: 0, y: 0, width: 100, height: 100 }, 1000, 800, { maxZoom: MAX_ZOOM }).scale).toBe(MAX_ZOOM);
  });

  it('huge content stops at the minimum zoom; a zero-size box does not divide by zero', () => {
    expect(fitCamera({ x: 0, y: 0, width: 1e7, height: 10 }, 800, 600).scale).toBe(MIN_ZOOM);
    const dot = fitCamera({ x: 5, y: 5, width: 0, height: 0 }, 800, 600, { maxZoom: 3 });
    expect(dot.scale).toBe(3);
    expect(Number.isFinite(dot.x)).toBe(true);
  });

  it('reveal keeps the camera when the box is visible, otherwise zooms out (never in) to show it', () => {
    const cam = { x: 0, y: 0, scale: 1 };
    const inside = { x: 10, y: 10, width: 100, height: 100 };
    expect(revealCamera(cam, 800, 600, inside)).toBe(cam);
    const wide = { x: 0, y: 0, width: 3000, height: 200 };
    const moved = revealCamera(cam, 800, 600, wide);
    expect(moved.scale).toBeLessThan(1);
    expect(isInView(moved, 800, 600, wide)).toBe(true);
    const far = { x: 5000, y: 5000, width: 10, height: 10 };
    const zoomedOut = { x: 0, y: 0, scale: 0.5 };
    const there = revealCamera(zoomedOut, 800, 600, far);
    expect(there.scale).toBe(0.5);
    const a = visibleArea(there, 800, 600);
    expect(a.x + a.width / 2).toBeCloseTo(5005);
  });
});
