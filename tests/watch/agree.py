#!/usr/bin/env python3
"""agree.py METRICS RULES OUT: a promtool test in which the rule file of
`supernode watch rules` must fire exactly what the agent found.

METRICS is one interval of the agent (`watch --once`) on a fixture host:
every sample becomes an input series of instance "n0:10384" and job
"supernode", a gauge held at its value, a counter 0 at the start and its
value from the first minute on (so that increase() sees what the agent
counted). For every rule of RULES, the test asks which subjects the
alert fires for once its `for:` has passed, and expects exactly the
subjects of the agent's supernode_rule_active for that rule: none where
the agent found none."""
import re
import sys

import yaml

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def seconds(d):
    m = re.fullmatch(r'(\d+)([smh])', d or '0s')
    return int(m.group(1)) * {'s': 1, 'm': 60, 'h': 3600}[m.group(2)]


def main():
    metrics, rules, out = sys.argv[1:4]
    types, series, active = {}, [], {}
    for line in open(metrics, encoding='utf-8'):
        line = line.rstrip('\n')
        if line.startswith('# TYPE '):
            _, _, name, kind = line.split(' ', 3)
            types[name] = kind
            continue
        m = SAMPLE.match(line)
        if not m or line.startswith('#'):
            continue
        name, labels, value = m.group(1), m.group(2) or '', m.group(3)
        lab = dict(LABEL.findall(labels))
        if name == 'supernode_rule_active':
            active.setdefault(lab['rule'], set()).add(lab['subject'])
        lab.update(instance='n0:10384', job='supernode')
        text = ','.join('%s="%s"' % (k, v) for k, v in sorted(lab.items()))
        base = re.sub(r'_(total|created)$', '', name)
        if types.get(name) == 'counter' or types.get(base) == 'counter':
            values = '0 %sx60' % value
        else:
            values = '%sx60' % value
        series.append({'series': '%s{%s}' % (name, text), 'values': values})
    tests = []
    doc = yaml.safe_load(open(rules, encoding='utf-8'))
    names = set()
    for g in doc['groups']:
        for r in g['rules']:
            name = r['labels']['rule']
            if name in names:
                continue  # gpu_xid's two tiers: one question
            names.add(name)
            at = seconds(r.get('for')) + 120
            tests.append({
                'expr': 'group by (rule, subject) (ALERTS{alertstate='
                        '"firing", rule="%s"})' % name,
                'eval_time': '%ds' % at,
                'exp_samples': [{'labels': '{rule="%s", subject="%s"}' %
                                           (name, s), 'value': 1}
                                for s in sorted(active.get(name, ()))],
            })
    unknown = set(active) - names
    if unknown:
        sys.exit('agree.py: the agent has rules the file lacks: %s' %
                 ' '.join(sorted(unknown)))
    with open(out, 'w', encoding='utf-8') as f:
        yaml.safe_dump({'rule_files': [rules], 'evaluation_interval': '1m',
                        'tests': [{'interval': '1m',
                                   'input_series': series,
                                   'promql_expr_test': tests}]},
                       f, sort_keys=False, width=4096)
    print('%d series, %d rules, agent fires %s' % (
        len(series), len(tests),
        ', '.join('%s: %s' % (k, '; '.join(sorted(v)))
                  for k, v in sorted(active.items())) or 'nothing'))


main()
