import type { Room } from './room.ts';

/**
 * State that one module keeps per room (as a Hocuspocus extension keeps its own per document):
 * the room itself holds only what the core needs, and no other module can read or write this.
 * Created on first use and dropped with the room (a WeakMap: nothing to clean up on unload).
 */
export function perRoom<T>(init: (room: Room) => T): (room: Room) => T {
  const states = new WeakMap<Room, T>();
  return (room) => {
    let state = states.get(room);
    if (state === undefined) {
      state = init(room);
      states.set(room, state);
    }
    return state;
  };
}
