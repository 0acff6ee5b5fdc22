#!/usr/bin/env python3
"""partition-table.py - partitions.txt's "part" lines from what
t/gpu/partition.cu measured (run with PARTITION_LAUNCH=1).

    t/gpu/partition-table.py DIR GPU SOURCE >lines

DIR holds its sms.csv, occ.csv and layout.csv. The GPCs are the whole
device's, as its cluster launches joined SMs (layout.csv, part "device").
For every flag set and group size (the first minCount giving it), each
part's hardware layout is its SMs counted by GPC; its API layout is the one
layout that reproduces every cudaOccupancyMaxActiveClusters answer of the
part under the cluster rule (docs/cluster-research.md), solved exactly.
Checks, failing the run: the SMs of a part are the same for every minCount
giving that group size; the launches' clusters inside a part ran in the
hardware layout's GPCs; an API layout reproduces all 256 answers.
"""
import csv
import sys
from collections import Counter, defaultdict
from fractions import Fraction

FLAGS = {'0': 'default', '1': 'ignore-coscheduling', '2': 'max-cluster-size'}
MAXP = 18
COLS = [(b, c) for b in range(1, 9) for c in range(1, 17)]


def clusters(pieces, b, c):
    b = min(b, 8)
    return sum(n * b // c for n in pieces if n >= c)


def fmt(pieces):
    pieces = sorted(pieces, reverse=True)
    out, i = [], 0
    while i < len(pieces):
        j = i
        while j < len(pieces) and pieces[j] == pieces[i]:
            j += 1
        out.append(str(pieces[i]) + ('x%d' % (j - i) if j - i > 1 else ''))
        i = j
    return ','.join(out)


class Solver:
    """x with M x = y, M's columns being what one GPC of n SMs answers."""

    def __init__(self):
        m = [[Fraction(b * n // c if n >= c else 0) for n in range(1, MAXP + 1)]
             for (b, c) in COLS]
        n = MAXP
        a = [[sum(m[k][i] * m[k][j] for k in range(len(m))) for j in range(n)]
             + [Fraction(int(i == j)) for j in range(n)] for i in range(n)]
        for i in range(n):
            p = next(r for r in range(i, n) if a[r][i] != 0)
            a[i], a[p] = a[p], a[i]
            piv = a[i][i]
            a[i] = [v / piv for v in a[i]]
            for r in range(n):
                if r != i and a[r][i] != 0:
                    f = a[r][i]
                    a[r] = [u - f * v for u, v in zip(a[r], a[i])]
        inv = [row[n:] for row in a]
        # (M^T M)^-1 M^T
        self.p = [[sum(inv[i][j] * m[k][j] for j in range(n))
                   for k in range(len(m))] for i in range(n)]

    def layout(self, answers):
        y = [answers[bc] for bc in COLS]
        x = [sum(self.p[i][k] * y[k] for k in range(len(y)))
             for i in range(MAXP)]
        if any(v.denominator != 1 or v < 0 for v in x):
            return None
        pieces = [n + 1 for n in range(MAXP) for _ in range(int(x[n]))]
        if any(clusters(pieces, b, c) != v for (b, c), v in answers.items()):
            return None
        return pieces


def main():
    d, gpu, source = sys.argv[1], sys.argv[2], sys.argv[3]
    gpc, bad = {}, 0
    joined = defaultdict(list)
    for r in csv.DictReader(open(d + '/layout.csv')):
        if r['status'] == 'ok':
            joined[(r['flags'], r['min_count'], r['part'])].append(
                [set(map(int, g.split())) for g in r['gpcs'].split(';')])
    up = {}

    def root(x):
        while up.setdefault(x, x) != x:
            x = up[x]
        return x
    for line in joined[('-1', '0', 'device')]:
        for g in line:
            g = sorted(g)
            for s in g:
                up[root(s)] = root(g[0])
    gpc = {s: root(s) for s in list(up)}
    sms = {}
    for r in csv.DictReader(open(d + '/sms.csv')):
        sms[(r['flags'], r['min_count'], r['part'])] = \
            tuple(sorted(int(x) for x in r['smids'].split()))
    answers, same = defaultdict(dict), {}
    for r in csv.DictReader(open(d + '/occ.csv')):
        key = (r['flags'], r['min_count'], r['part'])
        if r['blocks_per_sm'] == 'same-as':
            m, p = r['dynamic_smem'].split('/')
            same[key] = (r['flags'], m, p)
            continue
        answers[key][(int(r['api_blocks_per_sm']), int(r['cluster_size']))] = \
            int(r['runtime_clusters'])
    solver = Solver()
    first = {}          # (flags, group size) -> minCount
    parts = defaultdict(dict)
    for (f, m, p), ids in sorted(sms.items(), key=lambda kv: (
            kv[0][0], int(kv[0][1]), kv[0][2])):
        if f not in FLAGS:
            continue
        size = len(sms[(f, m, '0')])
        k = (f, size)
        first.setdefault(k, m)
        if parts[k].get(p, ids) != ids:
            print('# %s: %s group size %d part %s: other SMs at minCount %s'
                  % (gpu, FLAGS[f], size, p, m), file=sys.stderr)
            bad += 1
        parts[k][p] = ids
    out = []
    for (f, size), ps in sorted(parts.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        m = first[(f, size)]
        order = sorted((p for p in ps if p != 'remaining'), key=int)
        order += ['remaining'] if 'remaining' in ps else []
        for p in order:
            key = (f, m, p)
            hw = list(Counter(gpc[s] for s in ps[p]).values())
            akey = same.get(key, key)
            api = solver.layout(answers[akey])
            if api is None:
                print('# %s %s: no layout reproduces the API' % (gpu, key),
                      file=sys.stderr)
                bad += 1
                continue
            for g in joined.get(akey, []):
                for grp in g:
                    if len({gpc[s] for s in grp}) != 1:
                        print('# %s %s: a cluster across GPCs' % (gpu, key),
                              file=sys.stderr)
                        bad += 1
            out.append('part %s %s %d %s %s %s %s' % (
                gpu, FLAGS[f], size, p, fmt(hw), fmt(api), source))
    print('\n'.join(out))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
