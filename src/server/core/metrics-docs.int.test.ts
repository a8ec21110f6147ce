/**
 * The sample Grafana dashboard and the Prometheus alerting rules (docs/grafana/) name only what a server's /metrics
 * really serves: every metric in their expressions and every label they select or group by is in a scrape taken
 * after some traffic, so a renamed metric or label fails here rather than in an operator's empty panel.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { describeDb } from '../../../tests/support/test-db';
import { createApiClient, useTestApp, useUser } from '../../../tests/support/test-app';
import { seedShop } from '../../../tests/support/seed-app';

const TOKEN = 'metrics-token-0123456789';
/** The dashboard's Prometheus data source, an input that Grafana asks for on import. */
const DATASOURCE = `\${DS_PROMETHEUS}`;
const read = (name: string) => readFileSync(new URL(`../../../docs/grafana/${name}`, import.meta.url), 'utf8');

type Yaml = string | Yaml[] | { [key: string]: Yaml };

/**
 * The part of YAML the rules file is written in, read strictly: block mappings and sequences by indentation, and
 * scalars that are single-quoted, double-quoted (JSON's escapes) or plain without any character that would give
 * them another meaning. Anything else is an error, so what this accepts is YAML that reads the same everywhere.
 */
function parseYamlSubset(text: string): Yaml {
  const lines = text
    .split('\n')
    .map((raw, index) => ({ raw, number: index + 1 }))
    .filter(({ raw }) => raw.trim() !== '' && !raw.trimStart().startsWith('#'))
    .map(({ raw, number }) => {
      if (/\t|\s$/.test(raw)) throw new Error(`line ${number}: tab or trailing space`);
      const indent = raw.length - raw.trimStart().length;
      return { indent, body: raw.slice(indent), number };
    });
  let at = 0;

  const scalar = (value: string, number: number): string => {
    if (value.startsWith("'")) {
      if (!/^'(?:[^']|'')*'$/.test(value)) throw new Error(`line ${number}: bad single-quoted scalar`);
      return value.slice(1, -1).replaceAll("''", "'");
    }
    if (value.startsWith('"')) return JSON.parse(value) as string;
    if (!/^[A-Za-z0-9_.][^#'"]*$/.test(value) || value.includes(': ') || /^(true|false|null|[-+]?[0-9][0-9_.]*)$/i.test(value))
      throw new Error(`line ${number}: plain scalar ${value} needs quotes`);
    return value;
  };

  // The lines at exactly `indent`, a sequence if the first starts with "- ", else a mapping.
  const block = (indent: number): Yaml => {
    const first = lines[at];
    if (first === undefined || first.indent !== indent) throw new Error(`line ${first?.number ?? 'end'}: expected a block at ${indent}`);
    if (first.body.startsWith('- ')) {
      const items: Yaml[] = [];
      while (lines[at]?.indent === indent && lines[at].body.startsWith('- ')) {
        // "- key: value" opens a mapping whose entries sit two columns further in.
        lines[at] = { ...lines[at], indent: indent + 2, body: lines[at].body.slice(2) };
        items.push(block(indent + 2));
      }
      return items;
    }
    const map: { [key: string]: Yaml } = {};
    while (lines[at]?.indent === indent && !lines[at].body.startsWith('- ')) {
      const { body, number } = lines[at];
      const match = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.+))?$/.exec(body);
      if (!match) throw new Error(`line ${number}: expected "key: value"`);
      const [, key, value] = match;
      if (key in map) throw new Error(`line ${number}: ${key} twice`);
      at += 1;
      const next = lines[at];
      map[key] = value === undefined ? block(next && next.indent > indent ? next.indent : -1) : scalar(value, number);
    }
    return map;
  };

  const document = block(0);
  if (at !== lines.length) throw new Error(`line ${lines[at].number}: indentation does not match any block`);
  return document;
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
// Labels Prometheus adds to every series it scrapes (the target's), and `up`, the series it writes per target.
const TARGET_LABELS = ['instance', 'job'];
const PROMETHEUS_OWN = new Set(['up']);

/** The metrics a PromQL expression reads, each with the label names it selects on, and the labels it groups by. */
function readExpression(expr: string): { selectors: { metric: string; labels: string[] }[]; groupedBy: string[] } {
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/'(?:[^'\\]|\\.)*'/g, "''");
  const selectors: { metric: string; labels: string[] }[] = [];
  const withoutSelectors = bare.replace(/([A-Za-z_:][A-Za-z0-9_:]*)\s*\{([^}]*)\}/g, (_, metric: string, matchers: string) => {
    selectors.push({ metric, labels: [...matchers.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]) });
    return ' ';
  });
  const groupedBy: string[] = [];
  const rest = withoutSelectors
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_, _word: string, labels: string) => {
      groupedBy.push(
        ...labels
          .split(',')
          .map((label) => label.trim())
          .filter(Boolean),
      );
      return ' ';
    });
  for (const match of rest.matchAll(/(?<![\w$.])([A-Za-z_:][A-Za-z0-9_:]*)(?![\w:]|\s*\()/g)) {
    if (!KEYWORDS.has(match[1])) selectors.push({ metric: match[1], labels: [] });
  }
  return { selectors, groupedBy };
}

/** Every sample's name in a scrape, with the label names its samples carry. */
function scrapedSeries(text: string): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{.*\})? \S+$/.exec(line);
    if (!match) throw new Error(`unreadable sample: ${line}`);
    const labels = series.get(match[1]) ?? new Set<string>();
    for (const label of (match[2] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)="(?:[^"\\]|\\.)*"/g)) labels.add(label[1]);
    series.set(match[1], labels);
  }
  return series;
}

/** What of one expression the scrape does not have, as readable lines (empty: all there). */
function missingFrom(series: Map<string, Set<string>>, expr: string): string[] {
  const { selectors, groupedBy } = readExpression(expr);
  const missing: string[] = [];
  const known = new Set(TARGET_LABELS);
  for (const { metric, labels } of selectors) {
    if (PROMETHEUS_OWN.has(metric)) {
      for (const label of TARGET_LABELS) known.add(label);
      continue;
    }
    const scraped = series.get(metric);
    if (!scraped) {
      missing.push(`metric ${metric}`);
      continue;
    }
    for (const label of scraped) known.add(label);
    for (const label of labels) if (!scraped.has(label) && !TARGET_LABELS.includes(label)) missing.push(`label ${label} of ${metric}`);
  }
  for (const label of groupedBy) if (!known.has(label)) missing.push(`label ${label} (grouped by)`);
  return missing.map((what) => `${what} in ${expr}`);
}

it('reads the metric names and labels out of PromQL', () => {
  expect(
    readExpression(
      'histogram_quantile(0.95, sum by (instance, le) (rate(dialflow_hop_duration_seconds_bucket{part="runtime"}[5m]))) > 0.25 and up{job=~"a{b}"} == 0',
    ),
  ).toEqual({
    selectors: [
      { metric: 'dialflow_hop_duration_seconds_bucket', labels: ['part'] },
      { metric: 'up', labels: ['job'] },
    ],
    groupedBy: ['instance', 'le'],
  });
  expect(readExpression('sum(rate(process_cpu_seconds_total[$__rate_interval])) / nodejs_heap_size_used_bytes offset 5m')).toEqual({
    selectors: [
      { metric: 'process_cpu_seconds_total', labels: [] },
      { metric: 'nodejs_heap_size_used_bytes', labels: [] },
    ],
    groupedBy: [],
  });
  const series = scrapedSeries('# TYPE a counter\na{x="1"} 3\nb 1\n');
  expect(missingFrom(series, 'sum by (x) (rate(a{x="1"}[5m])) / b')).toEqual([]);
  expect(missingFrom(series, 'sum by (y) (c{z="1"}) + a{w!="2"}')).toEqual([
    'metric c in sum by (y) (c{z="1"}) + a{w!="2"}',
    'label w of a in sum by (y) (c{z="1"}) + a{w!="2"}',
    'label y (grouped by) in sum by (y) (c{z="1"}) + a{w!="2"}',
  ]);
});

it('reads the YAML the rules are written in, and refuses what it does not know', () => {
  expect(parseYamlSubset("# c\na:\n  - b: 'x: ''y'''\n    c: 5m\n  - d:\n      e: \"f\\\"\"\ng: h\n")).toEqual({
    a: [{ b: "x: 'y'", c: '5m' }, { d: { e: 'f"' } }],
    g: 'h',
  });
  expect(() => parseYamlSubset('a: {b: 1}\n')).toThrow('needs quotes');
  expect(() => parseYamlSubset('a: b # c\n')).toThrow('needs quotes');
  expect(() => parseYamlSubset('a: yes: no\n')).toThrow('needs quotes');
  expect(() => parseYamlSubset('a: 10\n')).toThrow('needs quotes');
  expect(() => parseYamlSubset('a:\n  b: c\n d: e\n')).toThrow('indentation');
  expect(() => parseYamlSubset('a: b\na: c\n')).toThrow('a twice');
});

describeDb('the sample dashboard and alert rules', () => {
  const t = useTestApp({ METRICS_TOKEN: TOKEN });
  const owner = useUser(t);
  const builder = useUser(t, { roles: ['CHATBOT'] });
  let series: Map<string, Set<string>>;

  beforeAll(async () => {
    const appId = await seedShop(t, owner.auth);
    // Two sessions to their end, so that the counters with labels have series.
    for (const [i, session] of ['D-1', 'D-2'].entries()) {
      for (const text of ['', '1', '1*5']) {
        const hop = await t.app.inject({
          method: 'POST',
          url: `/ussd/${appId}/test`,
          payload: new URLSearchParams({
            sessionId: session,
            serviceCode: '*920*55#',
            phoneNumber: `+23324110000${i}`,
            networkCode: '62001',
            text,
          }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(hop.statusCode).toBe(200);
      }
    }
    // A bot's number being linked, so that the links gauge has a state.
    const { post } = createApiClient(t, builder);
    const botId = (await post('/api/chatbot/app/create', { appName: 'Metrics Bot', description: 'links' })).json().data.appId;
    expect((await post('/api/chatbot/whatsapp/link', { chatBotAppId: botId })).statusCode).toBe(200);
    await t.app.runtime.flushEvents();
    const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scrape.statusCode).toBe(200);
    series = scrapedSeries(scrape.body);
    expect(series.get('dialflow_sessions_ended_total')).toEqual(new Set(['gateway', 'cause']));
    expect(series.get('dialflow_whatsapp_links')).toEqual(new Set(['state']));
  });

  it('the dashboard queries only metrics and labels the server serves, through its Prometheus input', () => {
    const dashboard = JSON.parse(read('dialflow-dashboard.json')) as {
      __inputs: { name: string; type: string; pluginId: string }[];
      templating: { list: { query: { query: string }; datasource: { uid: string } }[] };
      panels: { type: string; title: string; datasource?: { uid: string }; targets?: { expr: string; datasource: { uid: string } }[] }[];
    };
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' })]);
    const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
    expect(graphs.length).toBeGreaterThanOrEqual(12);
    const expressions: string[] = [];
    for (const panel of graphs) {
      expect(panel.datasource?.uid, panel.title).toBe(DATASOURCE);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) {
        expect(target.datasource.uid).toBe(DATASOURCE);
        expressions.push(target.expr);
      }
    }
    for (const variable of dashboard.templating.list) {
      expect(variable.datasource.uid).toBe(DATASOURCE);
      const [, metric, label] = /^label_values\((\w+), (\w+)\)$/.exec(variable.query.query) ?? [];
      expressions.push(`sum by (${label}) (${metric})`);
    }
    expect(expressions.flatMap((expr) => missingFrom(series, expr))).toEqual([]);
    // Every metric of the server's own is on the dashboard.
    const used = new Set(expressions.flatMap((expr) => readExpression(expr).selectors.map((s) => s.metric.replace(/_bucket$/, ''))));
    const ours = [...series.keys()]
      .filter((name) => name.startsWith('dialflow_') && !/_(count|sum)$/.test(name))
      .map((name) => name.replace(/_bucket$/, ''));
    expect(ours.filter((name) => !used.has(name))).toEqual([]);
  });

  it('the alert rules parse, and read only metrics and labels the server serves (and up)', () => {
    const rules = parseYamlSubset(read('alert-rules.yml')) as { groups: { name: string; rules: Record<string, unknown>[] }[] };
    expect(Object.keys(rules)).toEqual(['groups']);
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.length).toBeGreaterThanOrEqual(10);
    const names = all.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of all) {
      expect(Object.keys(rule).filter((key) => !['alert', 'expr', 'for', 'labels', 'annotations'].includes(key))).toEqual([]);
      expect(rule.alert).toMatch(/^Dialflow[A-Za-z]+$/);
      expect(typeof rule.expr).toBe('string');
      if (rule.for !== undefined) expect(rule.for).toMatch(/^[0-9]+[smh]$/);
      expect(rule.labels).toEqual({ severity: expect.stringMatching(/^(critical|warning|info)$/) });
      expect(rule.annotations).toEqual({ summary: expect.any(String), description: expect.any(String) });
    }
    expect(all.flatMap((rule) => missingFrom(series, rule.expr as string))).toEqual([]);
    expect(all.some((rule) => readExpression(rule.expr as string).selectors.some((s) => s.metric === 'up'))).toBe(true);
  });
});
