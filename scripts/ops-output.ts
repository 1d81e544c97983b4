/**
 * The operator CLI's human output (`npm run ops` on a terminal, or `--table`): an object as aligned `key  value`
 * lines, a list of objects as a table, nested ones indented under their key. Colours (bold headings, dim empty values)
 * only when writing to a terminal and NO_COLOR is unset. Scripts get JSON (`--json`, or any output that is not a
 * terminal): docs/decisions/0015-demo-data-and-sandbox.md.
 */
export interface Style {
  heading: (text: string) => string;
  dim: (text: string) => string;
}

export const PLAIN: Style = { heading: (t) => t, dim: (t) => t };
export const COLOURS: Style = { heading: (t) => `\x1b[1m${t}\x1b[22m`, dim: (t) => `\x1b[2m${t}\x1b[22m` };

const MAX_CELL = 60;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** One value on one line: scalars as they are, dates in ISO 8601, anything else as compact JSON, cut at MAX_CELL. */
function cell(value: unknown, style: Style): string {
  if (value === null || value === undefined) return style.dim('–');
  if (value instanceof Date) return value.toISOString();
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** Visible width (colour codes do not count). */
const ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const width = (text: string) => text.replace(ESCAPE, '').length;
const pad = (text: string, to: number) => text + ' '.repeat(Math.max(0, to - width(text)));

function table(rows: Record<string, unknown>[], style: Style, indent: string): string[] {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = rows.map((row) => columns.map((c) => cell(row[c], style)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => width(r[i]))));
  const line = (values: string[]) => indent + values.map((v, i) => (i === values.length - 1 ? v : pad(v, widths[i]))).join('  ');
  return [line(columns.map((c) => style.heading(c))), ...cells.map(line)];
}

function lines(value: unknown, style: Style, indent: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [indent + style.dim('(none)')];
    if (value.every(isRecord)) return table(value, style, indent);
    return value.map((item) => indent + cell(item, style));
  }
  if (!isRecord(value)) return [indent + cell(value, style)];
  const keys = Object.keys(value);
  const keyWidth = Math.max(0, ...keys.filter((k) => !isRecord(value[k]) && !Array.isArray(value[k])).map((k) => k.length));
  return keys.flatMap((key) => {
    const v = value[key];
    if (isRecord(v) || (Array.isArray(v) && v.some((item) => typeof item === 'object' && item !== null)))
      return [indent + style.heading(`${key}:`), ...lines(v, style, `${indent}  `)];
    return [
      `${indent}${pad(style.heading(key), keyWidth)}  ${Array.isArray(v) ? v.map((x) => cell(x, style)).join(', ') : cell(v, style)}`,
    ];
  });
}

/** The human text of a command's answer, ending with a newline. */
export function humanText(value: unknown, style: Style): string {
  return `${lines(value, style, '').join('\n')}\n`;
}
