import { interpolate, parseDockerfile } from '@scripts/image-boot';

describe('image-boot', () => {
  it('interpolates as compose does', () => {
    const used = new Set<string>();
    const vars = { SET: 'value', EMPTY: '' };
    expect(interpolate('a ${SET} $SET $$SET', vars, used, 'x')).toBe('a value value $SET');
    expect(interpolate('${EMPTY:-fallback} ${EMPTY-kept} ${UNSET-dash} ${UNSET:-${SET}}', vars, used, 'x')).toBe('fallback  dash value');
    expect(() => interpolate('${EMPTY:?set EMPTY in .env}', vars, used, 'svc')).toThrow('compose refuses svc: EMPTY: set EMPTY in .env');
    expect(() => interpolate('${UNSET?needed}', vars, used, 'svc')).toThrow(/UNSET: needed/);
    expect(interpolate('${EMPTY?fine}', vars, used, 'x')).toBe('');
    expect([...used].sort()).toEqual(['EMPTY', 'SET', 'UNSET']);
  });

  it('reads Dockerfile instructions with continuations and comments', () => {
    const instructions = parseDockerfile('# c\nARG X=1\n\nENV A=1 \\\n    B=2\nCOPY --from=build /app/dist ./dist\n');
    expect(instructions.map((i) => [i.keyword, i.args, i.line])).toEqual([
      ['ARG', 'X=1', 2],
      ['ENV', 'A=1 B=2', 4],
      ['COPY', '--from=build /app/dist ./dist', 6],
    ]);
  });
});
