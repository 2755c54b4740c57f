# The casino's production image: the compiled server and the built client, production packages only,
# run as the unprivileged `node` user. `docker build -t casino .`; docker-compose.yml runs it with
# PostgreSQL, Redis and a one-shot migration job (docs/operations.md).

# Builds the server (server/dist) and the client (client/dist) with every package.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY common/package.json common/
COPY server/package.json server/
COPY client/package.json client/
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# The packages the compiled server imports: the server's and common's production dependencies.
FROM node:20-bookworm-slim AS packages
WORKDIR /app
COPY package.json package-lock.json ./
COPY common/package.json common/
COPY server/package.json server/
COPY client/package.json client/
RUN npm install --omit=dev --workspace server --workspace common --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=2567 DATA_DIR=/data
# glibc's malloc hands blocks of 32 KiB and more straight back to the system when they are freed. The
# compilers' work memory (32 KiB blocks, freed after each compile) otherwise stays with the worker
# threads' malloc arenas: 35-65 MiB of an idle process on embedded PGlite (docs/performance.md, "The
# lean embedded default"). `npm start` sets the same.
ENV MALLOC_MMAP_THRESHOLD_=32768
WORKDIR /app
COPY --from=packages /app/node_modules node_modules
# server/package.json makes server/dist/*.js ES modules ("type": "module").
COPY package.json ./
COPY server/package.json server/
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/client/dist client/dist
# Embedded PGlite and the generated session secret, when no DATABASE_URL or SESSION_SECRET is given.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 2567
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "server/dist/main.js"]
