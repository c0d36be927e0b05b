/** The service's time source: injected so tests move subscriptions through time without waiting. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
