// A thread speaking the app operations thread's messages (rest-adapters/app-operations-thread.ts) without an executor:
// it answers each operation with the request id it was sent, after `variables.delayMs`, and exits on `variables.crash`.
const { parentPort } = require('node:worker_threads');

parentPort.on('message', (message) => {
  if (message.kind === 'metrics') {
    parentPort.postMessage({ kind: 'answer', id: message.id, metrics: `# ${message.own.length} series of the main thread\n` });
    return;
  }
  const variables = message.request.variables || {};
  if (variables.crash) process.exit(3);
  setTimeout(() => {
    const answer = { result: { data: { requestId: message.caller.requestId } }, status: 200 };
    parentPort.postMessage({ kind: 'answer', id: message.id, answer });
  }, variables.delayMs || 0);
});
parentPort.postMessage({ kind: 'ready' });
