#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""promtool unit tests of the alert rules, fed the tool's own textfiles.

Usage: rule_tests.py RULES OUT.yml NAME=TEXTFILE...

Each textfile (a real run of p2pdiag-check on a fixture) becomes the
series of one node, instance NAME, scraped every minute for 20 minutes.
The alerts each node must have at 10 minutes are written down here from
what the rules are meant to say, independently of PromQL: one
P2PDiagBroken per error finding of a node that exited 2, one
P2PDiagDegraded per warning finding of a node that exited 1 or 2, one
P2PDiagCheckFailed per node that exited 3, one P2PDiagAERUncorrectable
per non-zero uncorrectable AER count (flat or not), one
P2PDiagGPUDirectNotReady per configured route that is not ready, and no
P2PDiagUnexplainedStatus.  promtool then checks that the rules fire
exactly those, with exactly that text.  Prints, per exit status, how many
nodes had it and which alerts they fired.
"""
import re
import sys

SAMPLE = re.compile(r'^(p2pdiag_\w+)(?:\{(.*)\})? (\S+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def samples(path):
    out = []
    with open(path) as f:
        for line in f:
            m = SAMPLE.match(line.rstrip('\n'))
            if m:
                labels = dict(LABEL.findall(m.group(2) or ''))
                out.append((m.group(1), labels, float(m.group(3))))
    return out


def quote(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def number(v):
    return str(int(v)) if v == int(v) else repr(v)


def expected(node, series):
    status = next((v for n, _, v in series if n == 'p2pdiag_exit_status'), None)
    alerts = []

    def alert(name, labels, summary, description):
        alerts.append((name, labels, {'summary': summary,
                                      'description': description}))

    for n, l, v in series:
        base = dict(l, instance=node, job='node')
        if n == 'p2pdiag_finding_info':
            text = (l['code'], l['family'], l['subject'])
            if l['severity'] == 'error' and status == 2:
                alert('P2PDiagBroken', dict(base, severity='critical'),
                      'P2P broken on %s: %s (%s)' % (node, l['code'], l['subject']),
                      'p2pdiag-check found %s (%s) on %s and exited 2.  The '
                      'finding and its fix: journalctl -u p2pdiag-check.service '
                      'on the node, or p2pdiag-check --list-findings.' % text)
            if l['severity'] == 'warning' and status in (1, 2):
                alert('P2PDiagDegraded', dict(base, severity='warning'),
                      'P2P degraded on %s: %s (%s)' % (node, l['code'], l['subject']),
                      'p2pdiag-check found %s (%s) on %s.  The finding and its '
                      'fix: journalctl -u p2pdiag-check.service on the node, or '
                      'p2pdiag-check --list-findings.' % text)
        elif n == 'p2pdiag_exit_status' and v == 3:
            alert('P2PDiagCheckFailed', {'instance': node, 'job': 'node',
                                         'severity': 'warning'},
                  'p2pdiag-check fails on %s' % node,
                  'p2pdiag-check exited 3 (usage or environment error): its '
                  'message is in journalctl -u p2pdiag-check.service.')
        elif (n == 'p2pdiag_aer_errors_total' and v > 0 and
              l['kind'] in ('nonfatal', 'fatal')):
            alert('P2PDiagAERUncorrectable', dict(base, severity='warning'),
                  'Uncorrectable PCIe AER errors on %s (%s)' % (node, l['dev']),
                  '%s has logged %s %s AER errors since boot.' %
                  (l['dev'], number(v), l['kind']))
        elif (n == 'p2pdiag_gpudirect_ready' and v == 0 and
              l['route'] not in ('none', 'compat')):
            alert('P2PDiagGPUDirectNotReady', dict(base, severity='warning'),
                  'GPUDirect %s not ready on %s' % (l['kind'], node),
                  'GPU %s and %s over %s: a precondition fails '
                  '(p2pdiag-check\'s "GPUDirect readiness" section names it).'
                  % (l['pci_bus_id'], l['peer'], l['route']))
    return status, alerts


def main():
    rules, out = sys.argv[1], sys.argv[2]
    nodes = [a.split('=', 1) for a in sys.argv[3:]]
    names = ['P2PDiagBroken', 'P2PDiagDegraded', 'P2PDiagUnexplainedStatus',
             'P2PDiagCheckFailed', 'P2PDiagAERUncorrectable',
             'P2PDiagGPUDirectNotReady']
    lines = ['rule_files:', '  - ' + quote(rules), '',
             'evaluation_interval: 1m', '', 'tests:', '  - interval: 1m',
             '    input_series:']
    want = {name: [] for name in names}
    by_status = {}
    for node, path in nodes:
        series = samples(path)
        for n, l, v in series:
            if n == 'p2pdiag_last_run_timestamp_seconds':
                continue	# the run's own clock: P2PDiagCheckStale's test has its own
            labels = ','.join('%s=%s' % (k, quote(x)) for k, x in
                              sorted(dict(l, instance=node, job='node').items()))
            lines.append('      - series: ' + quote('%s{%s}' % (n, labels)))
            lines.append("        values: '%sx20'" % number(v))
        status, alerts = expected(node, series)
        fired = by_status.setdefault(status, {})
        fired.setdefault('nodes', set()).add(node)
        for name, labels, ann in alerts:
            want[name].append((labels, ann))
            fired[name] = fired.get(name, 0) + 1
    lines.append('    alert_rule_test:')
    for name in names:
        lines.append('      - eval_time: 10m')
        lines.append('        alertname: ' + name)
        if not want[name]:
            lines.append('        exp_alerts: []')
            continue
        lines.append('        exp_alerts:')
        for labels, ann in want[name]:
            lines.append('          - exp_labels:')
            for k, v in sorted(labels.items()):
                lines.append('              %s: %s' % (k, quote(v)))
            lines.append('            exp_annotations:')
            for k, v in sorted(ann.items()):
                lines.append('              %s: %s' % (k, quote(v)))
    with open(out, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    for status in sorted(by_status, key=lambda s: -1 if s is None else s):
        fired = by_status[status]
        nodes_with = sorted(fired.pop('nodes'))
        print('exit %s: %d node(s) (%s): %s' % (
            'none' if status is None else number(status), len(nodes_with),
            ' '.join(nodes_with[:4]) + (' ...' if len(nodes_with) > 4 else ''),
            ', '.join('%s x%d' % kv for kv in sorted(fired.items())) or 'no alert'))


if __name__ == '__main__':
    main()
