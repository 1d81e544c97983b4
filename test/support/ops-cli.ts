import { runOps } from '@scripts/ops';

/** The operator CLI as an operator meets it: exit codes, JSON results on stdout, one JSON error shape on stderr. */
export async function ops(argv: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await runOps(argv, env, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  const lines = stderr.trim()
    ? stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, any>)
    : [];
  return { code, stdout: stdout ? (JSON.parse(stdout) as Record<string, any>) : null, stderr: lines };
}
