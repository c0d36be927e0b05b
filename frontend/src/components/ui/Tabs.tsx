import * as Radix from '@radix-ui/react-tabs';
import type { ComponentProps } from 'react';
import styles from './Tabs.module.css';

/** Tabs on Radix: arrow keys move between tabs, Home/End jump, the panel is labelled by its tab. */
export const Tabs = Radix.Root;

const join = (a: string, b?: string) => (b ? `${a} ${b}` : a);

export function TabsList({ className, ...rest }: ComponentProps<typeof Radix.List>) {
  return <Radix.List {...rest} className={join(styles.list, className)} />;
}

export function TabsTrigger({ className, ...rest }: ComponentProps<typeof Radix.Trigger>) {
  return <Radix.Trigger {...rest} className={join(styles.trigger, className)} />;
}

export function TabsContent({ className, ...rest }: ComponentProps<typeof Radix.Content>) {
  return <Radix.Content {...rest} className={join(styles.content, className)} />;
}
