// A thread speaking an operations thread's messages (rest-adapters/operations-thread.ts) without an executor: it
// answers each operation with the request id it was sent and its own name, after `variables.delayMs`, and exits on
// `variables.crash`.
const { parentPort, workerData } = require('node:worker_threads');

parentPort.on('message', (message) => {
  if (message.kind === 'metrics') {
    const parts = [...message.parts, [{ thread: workerData.name }]];
    const reply = message.render ? { metrics: `# ${parts.length} parts merged by the ${workerData.name} thread\n` } : { parts };
    parentPort.postMessage({ kind: 'answer', id: message.id, ...reply });
    return;
  }
  const variables = message.request.variables || {};
  if (variables.crash) process.exit(3);
  setTimeout(() => {
    const answer = { result: { data: { requestId: message.caller.requestId, thread: workerData.name } }, status: 200 };
    parentPort.postMessage({ kind: 'answer', id: message.id, answer });
  }, variables.delayMs || 0);
});
parentPort.postMessage({ kind: 'ready' });
