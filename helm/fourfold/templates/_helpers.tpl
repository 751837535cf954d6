{{/*
Names, labels and the pieces every fourfold container shares.
*/}}

{{/* The chart name, overridable. */}}
{{- define "fourfold.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The resource-name prefix. Truncated to 40 characters so that derived names (the RayCluster's
"<prefix>-ray-head-svc", its pods and the Ray auth Secret KubeRay names after it) stay valid.
*/}}
{{- define "fourfold.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 40 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "fourfold.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every object; pass a dict with "root" (the top context) and "component". */}}
{{- define "fourfold.labels" -}}
helm.sh/chart: {{ include "fourfold.chart" .root }}
{{ include "fourfold.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: fourfold
{{- end }}

{{/* Labels that select one component's pods. */}}
{{- define "fourfold.selectorLabels" -}}
app.kubernetes.io/name: {{ include "fourfold.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "fourfold.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "fourfold.rayClusterName" -}}
{{- printf "%s-ray" (include "fourfold.fullname" .) }}
{{- end }}

{{/* KubeRay names the head Service "<cluster>-head-svc"; GCS listens on 6379. */}}
{{- define "fourfold.rayAddress" -}}
{{- printf "%s-head-svc:6379" (include "fourfold.rayClusterName" .) }}
{{- end }}

{{- define "fourfold.coordinatorName" -}}
{{- printf "%s-coordinator" (include "fourfold.fullname" .) }}
{{- end }}

{{- define "fourfold.claimName" -}}
{{- default (printf "%s-index" (include "fourfold.fullname" .)) .Values.indexVolume.existingClaim }}
{{- end }}

{{/*
The Secret holding Ray's token (key auth_token): the one named in authOptions, else the one the
KubeRay operator creates under the RayCluster's name.
*/}}
{{- define "fourfold.rayAuthSecret" -}}
{{- default (include "fourfold.rayClusterName" .) .Values.ray.authOptions.secretName }}
{{- end }}

{{/*
Environment variables, by concern; each container takes the ones it acts on.
  fourfold.env.home     - FOURFOLD_HOME, the index store (every fourfold container).
  fourfold.env.embedder - FOURFOLD_EMBEDDER, the embedder an index build uses (index runs).
  fourfold.env.voyage   - VOYAGE_API_KEY when the embedder is voyage: index runs embed segments, the
                          semantic actors on the Ray pods embed queries.
  fourfold.env.workerSecret - FOURFOLD_WORKER_SECRET from workerPlane.existingSecret: the coordinator sends it,
                          the workers (in the Ray pods) check it; without it the index volume holds one.
  fourfold.env.rayAuth  - Ray's auth mode and token for processes that join the Ray cluster from a
                          container KubeRay does not manage (coordinator, workers launcher); KubeRay
                          injects them into its own Ray containers.
*/}}
{{- define "fourfold.env.home" -}}
- name: FOURFOLD_HOME
  value: {{ .Values.indexVolume.mountPath | quote }}
{{- end }}

{{- define "fourfold.env.embedder" -}}
- name: FOURFOLD_EMBEDDER
  value: {{ required "embedder.name must name a registered embedder (minilm, voyage...)" .Values.embedder.name | quote }}
{{- end }}

{{- define "fourfold.env.voyage" -}}
{{- if eq .Values.embedder.name "voyage" }}
- name: VOYAGE_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ required "embedder.voyage.existingSecret must name a Secret holding the Voyage API key when embedder.name is voyage" .Values.embedder.voyage.existingSecret | quote }}
      key: {{ .Values.embedder.voyage.secretKey | quote }}
{{- end }}
{{- end }}

{{- define "fourfold.env.workerSecret" -}}
{{- with .Values.workerPlane.existingSecret }}
- name: FOURFOLD_WORKER_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ . | quote }}
      key: {{ $.Values.workerPlane.secretKey | quote }}
{{- end }}
{{- end }}

{{- define "fourfold.env.rayAuth" -}}
- name: RAY_AUTH_MODE
  value: {{ .Values.ray.authOptions.mode | quote }}
{{- if eq .Values.ray.authOptions.mode "token" }}
- name: RAY_AUTH_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ include "fourfold.rayAuthSecret" . | quote }}
      key: auth_token
{{- end }}
{{- end }}

{{/* Mount of the index store. */}}
{{- define "fourfold.indexMount" -}}
- name: index
  mountPath: {{ .Values.indexVolume.mountPath | quote }}
{{- end }}

{{- define "fourfold.indexVolume" -}}
- name: index
  persistentVolumeClaim:
    claimName: {{ include "fourfold.claimName" . | quote }}
{{- end }}

{{/* The container security context every fourfold container runs with. */}}
{{- define "fourfold.containerSecurityContext" -}}
allowPrivilegeEscalation: false
capabilities:
  drop: ["ALL"]
{{- end }}

{{/*
"--replicas MODALITY=N" arguments from modalities.replicas, in name order, and
"--workers-per-modality N" when modalities.workersPerModality is set, as a YAML list.
*/}}
{{- define "fourfold.replicaArgs" -}}
{{- range $name, $n := .Values.modalities.replicas }}
- --replicas
- {{ printf "%s=%d" $name (int $n) | quote }}
{{- end }}
{{- if gt (int .Values.modalities.workersPerModality) 0 }}
- --workers-per-modality
- {{ .Values.modalities.workersPerModality | int | quote }}
{{- end }}
{{- end }}

{{/* rayStartParams as KubeRay wants them: a map of strings ("{}" when empty). */}}
{{- define "fourfold.rayStartParams" -}}
{{- $params := dict }}
{{- range $key, $value := . }}
{{- $_ := set $params $key (toString $value) }}
{{- end }}
{{- toYaml $params }}
{{- end }}

{{/*
The pod of an index run, shared by the Job and the CronJob. An init container fetches each listed
repository (shallow, at its ref) into /repos/<name>; the main container runs "fourfold index" over
them with FOURFOLD_HOME on the index volume, where the new generation is switched in atomically.
Repository fields reach git as positional arguments, never through the shell's parser.
*/}}
{{- define "fourfold.indexPodSpec" -}}
{{- $names := list }}
{{- $fetchArgs := list }}
{{- range .Values.index.repositories }}
{{- $name := required "index.repositories[].name is required" .name }}
{{- if not (regexMatch "^[A-Za-z0-9][A-Za-z0-9._-]*$" $name) }}
{{- fail (printf "index.repositories[].name %q must be a plain folder name (letters, digits, '.', '_', '-')" $name) }}
{{- end }}
{{- $names = append $names $name }}
{{- $fetchArgs = concat $fetchArgs (list $name (required (printf "index.repositories[%s].url is required" $name) .url) (default "HEAD" .ref)) }}
{{- end }}
restartPolicy: Never
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
initContainers:
  - name: fetch
    image: {{ include "fourfold.image" . | quote }}
    imagePullPolicy: {{ .Values.image.pullPolicy }}
    command:
      - /bin/sh
      - -c
      - |
        set -eu
        while [ "$#" -gt 0 ]; do
          git init -q "/repos/$1"
          git -C "/repos/$1" fetch -q --depth 1 "$2" "$3"
          git -C "/repos/$1" checkout -q --force FETCH_HEAD
          shift 3
        done
      - fetch
    args:
      {{- toYaml $fetchArgs | nindent 6 }}
    securityContext:
      {{- include "fourfold.containerSecurityContext" . | nindent 6 }}
    volumeMounts:
      - name: repos
        mountPath: /repos
containers:
  - name: index
    image: {{ include "fourfold.image" . | quote }}
    imagePullPolicy: {{ .Values.image.pullPolicy }}
    command: ["fourfold"]
    args:
      - index
      {{- range $names }}
      - {{ printf "/repos/%s" . | quote }}
      {{- end }}
    env:
      {{- include "fourfold.env.home" . | nindent 6 }}
      {{- include "fourfold.env.embedder" . | nindent 6 }}
      {{- include "fourfold.env.voyage" . | nindent 6 }}
    resources:
      {{- toYaml .Values.index.resources | nindent 6 }}
    securityContext:
      {{- include "fourfold.containerSecurityContext" . | nindent 6 }}
    volumeMounts:
      {{- include "fourfold.indexMount" . | nindent 6 }}
      - name: repos
        mountPath: /repos
        readOnly: true
volumes:
  {{- include "fourfold.indexVolume" . | nindent 2 }}
  - name: repos
    emptyDir: {}
{{- with .Values.index.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.index.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
