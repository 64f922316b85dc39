"""Shared by the lab.py commands: socket-option constants, the address families, $READY and
$STATS, waiting for SIGTERM and the --option parser."""
import os, signal, socket, sys, threading

AF = {'4': socket.AF_INET, '6': socket.AF_INET6, 'ipv4': socket.AF_INET, 'ipv6': socket.AF_INET6}
IPPROTO_TCP = socket.IPPROTO_TCP
TCP_MD5SIG = 14
TCP_REPAIR, TCP_REPAIR_QUEUE, TCP_QUEUE_SEQ = 19, 20, 21
TCP_REPAIR_WINDOW = 29
TCP_TIMESTAMP = 24
TCP_FASTOPEN, TCP_FASTOPEN_NO_COOKIE = 23, 34
TCP_INFO, TCP_CLOSE = 11, 7
TCP_RECV_QUEUE, TCP_SEND_QUEUE = 1, 2
TCP_REPAIR_OFF_NO_WP = -1
SIOCOUTQ = 0x5411


def ready():
    p = os.environ.get('READY')
    if p:
        open(p, 'w').write('ready\n')


def stats(text):
    p = os.environ.get('STATS')
    if p:
        open(p, 'w').write('%s\n' % text)


def wait_term(on_term=None):
    ev = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: ev.set())
    signal.signal(signal.SIGINT, lambda *a: ev.set())
    while not ev.wait(0.2):
        pass
    if on_term:
        on_term()
    sys.exit(0)


def opts(argv):
    """--flag / --key VALUE parser -> (positional, dict)"""
    pos, kw, i = [], {}, 0
    while i < len(argv):
        a = argv[i]
        if a.startswith('--'):
            k = a[2:].replace('-', '_')
            if i + 1 < len(argv) and not argv[i + 1].startswith('--'):
                kw[k] = argv[i + 1]; i += 2
            else:
                kw[k] = True; i += 1
        else:
            pos.append(a); i += 1
    return pos, kw


def connect_n(fam, dst, port, n, timeout):
    """n TCP connections to dst:port, each connected (timeout seconds) and kept open"""
    socks = []
    for _ in range(n):
        c = socket.socket(fam, socket.SOCK_STREAM)
        c.settimeout(timeout)
        c.connect((dst, port))
        socks.append(c)
    return socks
