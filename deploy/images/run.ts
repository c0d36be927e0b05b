// How a product image is run as a container on one Docker engine (INFRA.md §2: no bridge, so the
// host's network on a port of its own), read-only with only /tmp written, and labelled as the
// platform's so the admin-monitoring service's Docker adapter finds it (DOCKER_LABEL's default).
// The admin container watches the same engine: CONTAINER_RUNTIME=docker and the engine's socket.
import { statSync } from 'node:fs';
import { imageName } from './build.ts';

/** DOCKER_LABEL's default in services/admin-monitoring/src/config.ts (a test keeps the two equal). */
export const PLATFORM_LABEL = 'wb.platform=whiteboard';
/** Where the admin container finds the engine's socket. */
export const CONTAINER_DOCKER_SOCKET = '/var/run/docker.sock';

export interface ContainerRun {
  /** The topology manifest's service name (auth, boards, admin, ...). */
  service: string;
  /** The container's name. */
  name: string;
  port: number;
  env: Record<string, string>;
  replicaId?: string;
  /** For the admin container: the engine's socket on this machine, mounted for its Docker adapter. */
  engineSocket?: string;
  /** More `docker run` options (before the image). */
  extra?: string[];
}

/** The `docker run` arguments of one product container (detached; prints its id). */
export function runArgs(c: ContainerRun): string[] {
  const args = ['run', '-d', '--name', c.name, '--network', 'host', '--read-only', '--tmpfs', '/tmp'];
  args.push('--label', PLATFORM_LABEL, '--label', `wb.service=${c.service}`);
  const env: Record<string, string> = { ...c.env, PORT: String(c.port), REPLICA_ID: c.replicaId ?? `${c.service}-1` };
  if (c.service === 'admin' && c.engineSocket) {
    env.CONTAINER_RUNTIME = 'docker';
    env.DOCKER_SOCKET = CONTAINER_DOCKER_SOCKET;
    // The socket is the engine group's (0660): the service's user 10001 joins that group, no more.
    args.push('-v', `${c.engineSocket}:${CONTAINER_DOCKER_SOCKET}`, '--group-add', String(statSync(c.engineSocket).gid));
  }
  for (const [k, v] of Object.entries(env)) args.push('-e', `${k}=${v}`);
  return [...args, ...(c.extra ?? []), imageName(c.service)];
}
