import { z } from 'zod';
import { emailField, nameField } from './auth.ts';

/**
 * The administration calls of spec §7 that are not billing's (stats, activity, system, docker,
 * update, users): the shapes of spec §3 the admin-monitoring and auth services answer with and the
 * admin panel reads, and the input they parse. Units where §3 is silent are decided in
 * docs/decisions.md ("Admin shapes"): memory and disk sizes of containers in MB, network in bytes,
 * host sizes in GB, percentages 0–100 with one decimal, `null` where a runtime cannot tell.
 */

/** Spec §3 Admin stats. `revenue` is in roubles (sum of paid RUB payments; other currencies are not converted). */
export const AdminStats = z.object({
  totalUsers: z.number().int(),
  activeSubscriptions: z.number().int(),
  totalBoards: z.number().int(),
  revenue: z.number(),
});
export type AdminStats = z.infer<typeof AdminStats>;

/** Spec §3 Today's stats ("today" is the UTC day). `paymentsAmount` is in roubles. */
export const TodayStats = z.object({
  newUsers: z.number().int(),
  newSubscriptions: z.number().int(),
  newBoards: z.number().int(),
  paymentsAmount: z.number(),
});
export type TodayStats = z.infer<typeof TodayStats>;

export const ACTIVITY_TYPES = ['user', 'subscription', 'boards', 'other'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Spec §3 Activity item: `time` is an ISO instant, `text` Russian (admin actions from the audit log are 'other'). */
export const ActivityItem = z.object({ type: z.enum(ACTIVITY_TYPES), time: z.string(), text: z.string() });
export type ActivityItem = z.infer<typeof ActivityItem>;

/** GET /admin/activity. */
export const ActivityAnswer = z.object({ activity: z.array(ActivityItem), todayStats: TodayStats });
export type ActivityAnswer = z.infer<typeof ActivityAnswer>;

/** Spec §3 System data: the host (or node) the admin-monitoring service runs on. Sizes in GB. */
export const SystemData = z.object({
  cpu: z.object({ usage: z.number(), cores: z.number().int() }),
  memory: z.object({ usage: z.number(), used: z.number(), total: z.number() }),
  disk: z.object({ usage: z.number(), used: z.number(), total: z.number(), mount: z.string() }),
  cached: z.boolean(),
  /** When the data was read (ISO instant). */
  cacheTime: z.string(),
  error: z.string().optional(),
});
export type SystemData = z.infer<typeof SystemData>;

export const CONTAINER_RUNTIMES = ['kubernetes', 'docker', 'local', 'none'] as const;
export type ContainerRuntimeName = (typeof CONTAINER_RUNTIMES)[number];

/**
 * One container of spec §3 Docker data. `state` is the runtime's own word (running, exited,
 * paused, waiting, ...); `created` is unix seconds; a number the runtime cannot give is null
 * (Kubernetes without a metrics API: cpu and memory usage unknown).
 */
export const ContainerInfo = z.object({
  id: z.string(),
  name: z.string(),
  image: z.string(),
  state: z.string(),
  created: z.number().int(),
  cpu: z.object({ usage: z.number().nullable() }),
  /** usage in percent of limit; used and limit in MB. */
  memory: z.object({ usage: z.number().nullable(), used: z.number().nullable(), limit: z.number().nullable() }),
  /** Bytes received and sent. */
  network: z.object({ rx: z.number().nullable(), tx: z.number().nullable() }),
  /** MB written by the container (its writable layer, or its process's disk writes). */
  disk: z.object({ size: z.number().nullable() }),
  /** Seconds since its process started while it runs, else null: the panel's uptime (beyond §3). */
  uptime: z.number().int().nullable().optional(),
  error: z.string().optional(),
  /** Why it is not running, in the runtime's words (Kubernetes: the waiting or terminated reason, e.g. CrashLoopBackOff). */
  reason: z.string().optional(),
});
export type ContainerInfo = z.infer<typeof ContainerInfo>;

/** Spec §3 Docker data (GET /admin/docker), whichever runtime the containers come from. */
export const DockerData = z.object({
  running: z.number().int(),
  total: z.number().int(),
  cached: z.boolean(),
  cacheTime: z.string(),
  containers: z.array(ContainerInfo),
  /** Where the containers were read (beyond §3). */
  runtime: z.enum(CONTAINER_RUNTIMES),
  /** Why the runtime could not be read at all (the list is then empty). */
  error: z.string().optional(),
});
export type DockerData = z.infer<typeof DockerData>;

/** Spec §3 Update status (GET /admin/update/status). */
export const UPDATE_FINISHED_STEP = 'Завершено';
export const UpdateStatus = z.object({
  is_running: z.boolean(),
  current_step: z.string(),
  progress: z.number(),
  started_at: z.string().nullable().optional(),
  finished_at: z.string().nullable().optional(),
  error: z.string().optional(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

/** One row of the users tab (spec §3 User): plan_name is the plan's name or 'Free'. */
export const AdminUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  plan_name: z.string(),
  boards_count: z.number().int(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

/** `?search=`: part of a name or e-mail, at most 200 characters. */
export const AdminSearchQuery = z.object({
  search: z
    .string({ error: 'Строка поиска должна быть текстом' })
    .max(200, { message: 'Строка поиска не длиннее 200 символов' })
    .optional(),
});

/** GET /admin/users: the newest ADMIN_USERS_LIMIT matches, and how many match in all. */
export const ADMIN_USERS_LIMIT = 200;
export const AdminUsersAnswer = z.object({ users: z.array(AdminUser), total: z.number().int() });
export type AdminUsersAnswer = z.infer<typeof AdminUsersAnswer>;

/** PUT /admin/users/{id} (spec §5 "User editor: name and email are required"): the profile's field rules. */
export const AdminUserUpdateInput = z.object({ name: nameField, email: emailField });
export type AdminUserUpdateInput = z.infer<typeof AdminUserUpdateInput>;

/**
 * An administrator's action (audit log, beyond the spec): published by the service that did it
 * (auth for users, billing for plans, subscriptions and config, admin-monitoring for updates),
 * kept by admin-monitoring and shown in the overview's activity as type 'other'. `before` and
 * `after` are the changed record's fields (never a password or a token).
 */
export const ADMIN_ACTIONS = [
  'user.updated',
  'user.deleted',
  'plan.created',
  'plan.updated',
  'plan.deactivated',
  'subscription.created',
  'subscription.updated',
  'subscription.extended',
  'subscription.revoked',
  'config.updated',
  'system.update_started',
  'system.cache_refreshed',
] as const;
export type AdminActionName = (typeof ADMIN_ACTIONS)[number];
