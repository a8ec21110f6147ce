// The image's health check (Dockerfile, deploy/compose.yaml): exit 0 when this process answers /readyz with 200.
const port = process.env.PORT ?? '3000';
fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2500) }).then(
  (reply) => process.exit(reply.ok ? 0 : 1),
  () => process.exit(1),
);
