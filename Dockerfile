# rodeo on Debian with the system Chromium, the code sandbox (bubblewrap) and Python for code
# nodes. The server runs as the non-root user rodeo; its data directory is the volume /data.
# Build: docker build -t rodeo .   Run: see compose.yaml.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -trimpath -o /out/rodeo .

FROM debian:bookworm-slim
# rodeo-packages: what the server and its nodes use (a test checks this list against the
# Makefile and the code: docker_test.go).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      chromium bubblewrap python3 bash util-linux ca-certificates fonts-liberation curl \
      xvfb ffmpeg espeak-ng \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 10001 rodeo && mkdir /data && chown rodeo /data
COPY --from=build /out/rodeo /usr/local/bin/rodeo
USER rodeo
ENV RODEO_ADDR=0.0.0.0:8080 RODEO_DATA=/data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["rodeo", "serve"]
