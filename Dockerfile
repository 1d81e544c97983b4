# One image for every process of the platform: the four subgraphs, the gateway, the REST adapters and the
# operator commands. docker-compose.yml runs it once per service, each with its own command:
#   node dist/subgraphs/<merchant|outlet|transaction|catalog>/src/main.js
#   node dist/gateway/src/main.js
#   node dist/rest-adapters/main.js
#   node dist/scripts/ops.js <db:migrate|seed:reference|seed:demo>

# Node 24 LTS. Its bundled npm 11 honours the `allowScripts` policy of package.json (only the packages named
# there run install scripts). The image's own Node is the runtime: the `node` package and the embedded
# PostgreSQL of `npm start`/`npm test` are dev dependencies and never reach the runtime stage.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app

# Build: all dependencies, TypeScript -> dist/ with swc (route operation.graphql files copied along).
FROM base AS build
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# Production dependencies only. --omit=optional too: typescript is an optional peer of cosmiconfig (through
# graphile-worker), which --omit=dev alone keeps; the only other optional package is pg-cloudflare (Workers only).
FROM base AS prod-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional && npm cache clean --force

# Runtime: no compiler, no dev dependencies, read-only application files owned by root, run as `node`.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app
# The code finds its root by walking up to package.json, then reads gateway/supergraph.graphql,
# gateway/operations.json and node_modules/idn-area-data/data/*.csv from there.
COPY package.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY gateway/supergraph.graphql gateway/operations.json gateway/trusted-documents.json ./gateway/
# The integrator pages the REST reference shows (/docs, info.description of /openapi.json).
COPY docs/api ./docs/api
USER node
EXPOSE 8080 4000 4001 4002 4003 4004
CMD ["node", "-e", "console.log('qris-merchant-platform: give a command, e.g.\\n  node dist/subgraphs/merchant/src/main.js   (also outlet, transaction, catalog)\\n  node dist/gateway/src/main.js\\n  node dist/rest-adapters/main.js\\n  node dist/scripts/ops.js db:migrate | seed:reference | seed:demo\\nsee docker-compose.yml')"]
