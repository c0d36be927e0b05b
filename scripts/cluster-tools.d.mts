// Types for cluster-tools.mjs, which deploy/kube and deploy/images import from TypeScript.
export const VERSIONS: {
  helm: string;
  helmUnittest: string;
  kubeconform: string;
  kubernetesValidate: string;
  kubernetesSchema: string;
  etcd: string;
  kubernetes: string;
  kwok: string;
};
export const cacheDir: string;
export function ensureHelm(): string;
export function ensureKubeconform(): string;
export function ensureSchemas(): string;
export function ensureHelmUnittest(): string;
export function ensureEtcd(): string;
/** The directory holding kube-apiserver, kube-controller-manager, kube-scheduler and kubectl. */
export function ensureKubernetes(): string;
/** The directory holding kwok and stages.yaml. */
export function ensureKwok(): string;
export function ensureDocker(): string;
