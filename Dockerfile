# The fourfold image: one image for the coordinator, the Ray head and workers, and index runs.
#   docker build -t fourfold:0.1.0 .
#   docker run -p 50551:50551 fourfold:0.1.0            # all roles in one container, local Ray
#   docker run fourfold:0.1.0 search "who calls main" --address HOST:50551
FROM python:3.11-slim

# git fetches repositories for index runs; wget is what KubeRay's default Ray health probes call.
# Debian's package versions move with the base image, so they are not pinned here.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends git wget \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    FOURFOLD_HOME=/var/lib/fourfold

WORKDIR /src
COPY . .
RUN pip install --no-cache-dir . \
    && rm -rf /src

# A fixed numeric uid/gid (10001) so that Kubernetes can verify runAsNonRoot and fsGroup can grant it
# the index volume.
RUN groupadd --system --gid 10001 fourfold \
    && useradd --system --uid 10001 --gid 10001 --create-home --home-dir /home/fourfold fourfold \
    && mkdir -p "$FOURFOLD_HOME" \
    && chown fourfold:fourfold "$FOURFOLD_HOME"

USER 10001:10001
WORKDIR /home/fourfold
VOLUME ["/var/lib/fourfold"]

# 50551: the coordinator's gRPC API and health service; 9090: Prometheus metrics (--metrics-port).
EXPOSE 50551 9090

ENTRYPOINT ["fourfold"]
# A container must listen on 0.0.0.0 to be reached, and the default is open (no tokens): say so
# explicitly. With $FOURFOLD_AUTH_TOKENS set, add --tls-cert/--tls-key (or --allow-plaintext-tokens).
CMD ["serve", "--address", "0.0.0.0:50551", "--allow-unauthenticated"]
