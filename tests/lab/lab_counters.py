"""Kernel counter readers of lab.py: `mib` (a MIB counter of /proc/net, nstat spelling)
and `udp-drops` (the drops column of /proc/net/udp{,6} for a port)."""
import os, sys


def read_mibs():
    vals = {}
    for f in ('/proc/net/netstat', '/proc/net/snmp'):
        lines = open(f).read().splitlines()
        for h, v in zip(lines[0::2], lines[1::2]):
            p, names = h.split(':', 1)
            _, nums = v.split(':', 1)
            for n, x in zip(names.split(), nums.split()):
                vals[p + n] = int(x)
    for f in ('/proc/net/snmp6',):
        if os.path.exists(f):
            for l in open(f):
                n, x = l.split()
                vals[n] = int(x)
    return vals


def cmd_mib(argv):
    v = read_mibs()
    if argv[0] not in v:
        sys.exit('no such counter: %s' % argv[0])
    print(v[argv[0]])


def cmd_udp_drops(argv):
    port = int(argv[0])
    tot = 0
    for f in ('/proc/net/udp', '/proc/net/udp6'):
        for l in open(f).read().splitlines()[1:]:
            c = l.split()
            if int(c[1].split(':')[1], 16) == port:
                tot += int(c[-1])
    print(tot)
