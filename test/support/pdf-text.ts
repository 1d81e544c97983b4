import { execFile } from 'node:child_process';
import { projectRoot } from '@lib/config/project-root';

/** unpdf is ESM-only: it runs in a Node child (real ESM), reading the PDF as base64 on stdin, writing each page's text as JSON. */
const SCRIPT = `
import { extractText, getDocumentProxy } from 'unpdf';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const pdf = await getDocumentProxy(new Uint8Array(Buffer.from(input, 'base64')));
const { totalPages, text } = await extractText(pdf, { mergePages: false });
process.stdout.write(JSON.stringify({ totalPages, text }));
`;

/** The text of each page of `pdf`, extracted by pdf.js (npm unpdf): an independent reader of what a PDF shows. */
export function pdfText(pdf: Buffer): Promise<{ totalPages: number; text: string[] }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', SCRIPT],
      { cwd: projectRoot(), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))),
    );
    child.stdin!.end(pdf.toString('base64'));
  });
}
