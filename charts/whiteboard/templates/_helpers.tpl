{{/* Names and labels: every template takes them from here. */}}
{{- define "whiteboard.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "whiteboard.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The topology manifest's facts (files/topology.json, generated from libs/topology). */}}
{{- define "whiteboard.topology" -}}
{{- .Files.Get "files/topology.json" -}}
{{- end -}}

{{- define "whiteboard.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "whiteboard.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: whiteboard
{{- end -}}

{{/* Selector of one service's pods. Call with (dict "root" $ "svc" $svc). */}}
{{- define "whiteboard.selectorLabels" -}}
app.kubernetes.io/name: {{ include "whiteboard.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .svc.name }}
{{- end -}}

{{- define "whiteboard.serviceName" -}}
{{- printf "%s-%s" (include "whiteboard.fullname" .root) .name -}}
{{- end -}}

{{- define "whiteboard.image" -}}
{{- $img := .root.Values.image -}}
{{- $repo := printf "%s-%s" $img.repository .svc.name -}}
{{- if $img.registry }}{{ $repo = printf "%s/%s" $img.registry $repo }}{{ end -}}
{{- printf "%s:%s" $repo (default .root.Chart.AppVersion $img.tag) -}}
{{- end -}}

{{- define "whiteboard.internalSecret" -}}
{{- default (printf "%s-internal" (include "whiteboard.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "whiteboard.databaseSecret" -}}
{{- default (printf "%s-database" (include "whiteboard.fullname" .)) .Values.database.existingSecret -}}
{{- end -}}

{{- define "whiteboard.mongoSecret" -}}
{{- default (printf "%s-mongo" (include "whiteboard.fullname" .)) .Values.mongo.existingSecret -}}
{{- end -}}

{{/* Is a service enabled in values (a planned one without an image is not, by default)? */}}
{{- define "whiteboard.enabled" -}}
{{- $v := index .root.Values.services .name -}}
{{- if $v.enabled }}true{{ end -}}
{{- end -}}

{{/* The environment of one service's container. Call with (dict "root" $ "svc" $svc "all" $services). */}}
{{- define "whiteboard.env" -}}
{{- $root := .root -}}
{{- $svc := .svc -}}
{{- $values := index $root.Values.services $svc.name -}}
- name: PORT
  value: {{ $svc.port | quote }}
- name: NODE_ENV
  value: production
- name: PUBLIC_URL
  value: {{ $root.Values.publicUrl | quote }}
- name: INTERNAL_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "whiteboard.internalSecret" $root }}
      key: INTERNAL_TOKEN
{{- if $svc.nats }}
- name: NATS_URL
  value: {{ $root.Values.natsUrl | quote }}
{{- end }}
{{- $mongoConfigured := or $root.Values.mongo.url $root.Values.mongo.existingSecret }}
{{- if or $svc.postgresSchema (and $svc.mongo (not $mongoConfigured)) }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "whiteboard.databaseSecret" $root }}
      key: {{ $root.Values.database.existingSecretKey }}
{{- end }}
{{- if and $svc.mongo $mongoConfigured }}
- name: MONGO_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "whiteboard.mongoSecret" $root }}
      key: {{ $root.Values.mongo.existingSecretKey }}
{{- end }}
{{- range $other := .all }}
{{- if and (has $other.name $svc.needs) (include "whiteboard.enabled" (dict "root" $root "name" $other.name)) }}
{{- $base := printf "http://%s:%v" (include "whiteboard.serviceName" (dict "root" $root "name" $other.name)) $other.port }}
{{- range $var, $suffix := $other.reachedBy }}
- name: {{ $var }}
  value: {{ printf "%s%s" $base $suffix | quote }}
{{- end }}
{{- if and (eq $svc.name "gateway") $other.headless }}
- name: {{ printf "%s_REPLICA_URLS" (upper $other.name) }}
  value: {{ printf "http://%s-headless:%v" (include "whiteboard.serviceName" (dict "root" $root "name" $other.name)) $other.port | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- if eq $svc.name "gateway" }}
- name: METRICS_PORT
  value: "9464"
- name: STATIC_DIR
  value: frontend/dist
{{- end }}
{{- range $key := $svc.secrets }}
{{- if and $root.Values.secrets.existingSecret (not (has $key (list "DATABASE_URL" "MONGO_URL" "INTERNAL_TOKEN"))) }}
- name: {{ $key }}
  valueFrom:
    secretKeyRef:
      name: {{ $root.Values.secrets.existingSecret }}
      key: {{ $key }}
      optional: true
{{- end }}
{{- end }}
{{- if eq $svc.name "admin" }}
{{- /* The Kubernetes adapter: this release's pods and Deployments, in the pod's own namespace (its Role's). */}}
{{- if not (hasKey $values.env "CONTAINER_RUNTIME") }}
- name: CONTAINER_RUNTIME
  value: kubernetes
{{- end }}
- name: KUBE_RELEASE
  value: {{ $root.Release.Name | quote }}
- name: KUBE_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
{{- end }}
{{- range $k, $v := $values.env }}
- name: {{ $k }}
  value: {{ $v | quote }}
{{- end }}
{{- end -}}

{{/* The port a service's metrics are scraped on: the gateway keeps them off its public port. */}}
{{- define "whiteboard.metricsPort" -}}
{{- if eq .name "gateway" }}9464{{ else }}{{ .port }}{{ end -}}
{{- end -}}
