#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the stacks of the KernelShark plugin with fgdecode's.

  compare_stacks.py FGDECODE.txt KSS.txt
      every record of kss-dump's output (KSS.txt) against fgdecode's text
      output of the same trace: the same records with the same stacks
  compare_stacks.py FGDECODE.txt --panel PANEL.txt
      the panel's text (STACKMAP_KSHARK_DUMP): its record, found in
      fgdecode's output by CPU, timestamp and event, has the same stack
  compare_stacks.py FGDECODE.txt --has-stack CPU TIMESTAMP EVENT
      exit 0 when fgdecode gives that event (alone at that time, not a
      stack record) a stack of frames

A record is keyed by (CPU, timestamp in microseconds, event name, how many
records of that key came before); its stack is the lines under it that
begin with "=>" or "<" (frames, markers, "<orphan stack of ...>"), with
fgdecode's " [module]" left out (libtraceevent's kallsyms give no module)
and its "<no stack: the recording of this CPU ends here>" (the panel says
"<no stack>").  Exit status 0 when they agree, 1 with the differences.
"""
import re
import sys

# "[CPU] TS: EVENT:", or "[CPU] FLAGS TS: EVENT:" where libtracecmd 1.5 and
# later give fgdecode the latency flags (trixie).
EVENT = re.compile(r'\[(\d+)\]\s+(?:[^\s:]+\s+)?(\d+\.\d+): ([\w:]+):')
MODULE = re.compile(r' \[[^\]]+\](?= \()')


def stack_line(line):
    line = line.strip()
    if not (line.startswith('=>') or line.startswith('<')):
        return None
    if line.startswith('<no stack'):
        return None
    return MODULE.sub('', line)


def parse(path):
    records, order, key = {}, [], None
    seen = {}
    with open(path, errors='replace') as f:
        for line in f:
            m = EVENT.search(line)
            if m and not line.startswith(' ' * 4 + '=>'):
                base = (int(m.group(1)), m.group(2), m.group(3))
                n = seen.get(base, 0)
                seen[base] = n + 1
                key = base + (n,)
                records[key] = []
                order.append(key)
                continue
            s = stack_line(line)
            if s is not None and key is not None:
                records[key].append(s)
    return records, order


def panel(path):
    """The panel's record (cpu, ts, event) and its stack lines."""
    with open(path, errors='replace') as f:
        lines = f.read().splitlines()
    m = re.match(r'#\d+\s+.*\[(\d+)\]\s+(\d+\.\d+): (\S+)$', lines[0])
    if not m:
        sys.exit('compare_stacks: %s: no "#ROW TASK-PID [CPU] TS: EVENT" first line: %r'
                 % (path, lines[0]))
    stack = [s for s in (stack_line(l) for l in lines[1:]) if s is not None]
    # KernelShark names events SYSTEM/EVENT, fgdecode EVENT.
    return (int(m.group(1)), m.group(2), m.group(3).split('/')[-1]), stack


def find(fg, cpu, ts, event):
    """fgdecode's records at [cpu] ts: event (one microsecond either way
    when none is exactly there: KernelShark's "%.6f" of a double may round
    the other way at half a microsecond)."""
    keys = [k for k in fg if k[:3] == (cpu, ts, event)]
    if not keys:
        near = ['%.6f' % (float(ts) + d) for d in (-1e-6, 1e-6)]
        keys = [k for k in fg if k[0] == cpu and k[1] in near and k[2] == event]
    return keys


def main():
    if len(sys.argv) == 6 and sys.argv[2] == '--has-stack':
        # An event (not a stack record) fgdecode gives a stack, alone at its time?
        fg, _ = parse(sys.argv[1])
        event = sys.argv[5].split('/')[-1]
        keys = find(fg, int(sys.argv[3]), sys.argv[4], event)
        ok = (len(keys) == 1 and fg[keys[0]] and event.startswith('stack_') is False
              and not fg[keys[0]][0].startswith('<'))
        return 0 if ok else 1
    if len(sys.argv) == 4 and sys.argv[2] == '--panel':
        fg, _ = parse(sys.argv[1])
        base, stack = panel(sys.argv[3])
        ts = base[1]
        keys = find(fg, base[0], ts, base[2])
        if len(keys) != 1:
            sys.exit('compare_stacks: %d fgdecode records at [%03d] %s: %s'
                     % (len(keys), base[0], ts, base[2]))
        want = fg[keys[0]]
        if stack != want:
            print('panel:   ' + '\n         '.join(stack))
            print('fgdecode: ' + '\n          '.join(want))
            return 1
        print('panel = fgdecode: [%03d] %s %s, %d lines' % (base[0], ts, base[2], len(stack)))
        return 0
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fg, fg_order = parse(sys.argv[1])
    ks, ks_order = parse(sys.argv[2])
    bad = 0
    for k in fg_order:
        if k not in ks:
            print('only in fgdecode: %r' % (k,))
            bad += 1
        elif fg[k] != ks[k]:
            print('differs: %r\n  fgdecode: %r\n  plugin:   %r' % (k, fg[k], ks[k]))
            bad += 1
        if bad > 10:
            break
    for k in ks_order:
        if k not in fg and bad <= 10:
            print('only in the plugin: %r' % (k,))
            bad += 1
    stacks = sum(1 for k in fg_order if fg[k])
    if bad:
        print('compare_stacks: %d records differ' % bad)
        return 1
    print('plugin = fgdecode: %d records, %d with a stack' % (len(fg_order), stacks))
    return 0


if __name__ == '__main__':
    sys.exit(main())
