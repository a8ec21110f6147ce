import { describe, expect, it } from 'vitest';
import { bindQueryTemplate } from './sql-template';

const scope: Record<string, string> = { 'session.mobile': '233244000000', name: "' or '1'='1", id: '1; drop table x; --' };
const render = (source: string) => scope[source.replace(/^\{\{-?\s*|\s*-?\}\}$/g, '')] ?? '';

describe('bindQueryTemplate', () => {
  it('turns expressions into each dialect placeholder and binds the rendered values', () => {
    const q = 'select * from users where msisdn = {{ session.mobile }} and name = {{ name }}';
    expect(bindQueryTemplate(q, 'postgres', render)).toEqual({
      text: 'select * from users where msisdn = $1 and name = $2',
      values: ['233244000000', "' or '1'='1"],
    });
    expect(bindQueryTemplate(q, 'mysql', render).text).toBe('select * from users where msisdn = ? and name = ?');
    expect(bindQueryTemplate(q, 'mssql', render).text).toBe('select * from users where msisdn = @p1 and name = @p2');
  });

  it('never writes a value into the text', () => {
    const bound = bindQueryTemplate('delete from t where id = {{ id }}', 'postgres', render);
    expect(bound.text).toBe('delete from t where id = $1');
    expect(bound.values).toEqual(['1; drop table x; --']);
  });

  it("treats '{{ x }}' (quotes around one expression) as a parameter", () => {
    expect(bindQueryTemplate("select 1 where a = '{{ name }}' and b = 'it''s'", 'postgres', render)).toEqual({
      text: "select 1 where a = $1 and b = 'it''s'",
      values: ["' or '1'='1"],
    });
    expect(bindQueryTemplate('select 1 where a = "{{ name }}"', 'mysql', render).text).toBe('select 1 where a = ?');
  });

  it('refuses an expression inside a longer string, an identifier or a dollar quote', () => {
    expect(() => bindQueryTemplate("select 1 where a like '%{{ name }}%'", 'postgres', render)).toThrow(/inside a quoted string/);
    expect(() => bindQueryTemplate('select "{{ name }}" from t', 'postgres', render)).toThrow(/quoted identifier/);
    expect(() => bindQueryTemplate('select `{{ name }}` from t', 'mysql', render)).toThrow(/quoted identifier/);
    expect(() => bindQueryTemplate('select [{{ name }}] from t', 'mssql', render)).toThrow(/quoted identifier/);
    expect(() => bindQueryTemplate('select $$ {{ name }} $$', 'postgres', render)).toThrow(/dollar-quoted/);
    expect(() => bindQueryTemplate('{% if x %}select 1{% endif %}', 'postgres', render)).toThrow(/tags/);
  });

  it('leaves an expression in a comment inert and ignores quotes in comments', () => {
    const bound = bindQueryTemplate("select 1 -- it's {{ name }}\nwhere a = {{ id }} /* ' */ and b = {{ name }}", 'postgres', render);
    expect(bound.text).toBe("select 1 -- it's {{ name }}\nwhere a = $1 /* ' */ and b = $2");
    expect(bound.values).toEqual(['1; drop table x; --', "' or '1'='1"]);
  });

  it('knows mysql backslash escapes', () => {
    expect(bindQueryTemplate("select 'a\\'b', {{ id }}", 'mysql', render).text).toBe("select 'a\\'b', ?");
  });
});
