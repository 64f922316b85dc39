#!/usr/bin/python3
"""Packet and socket helpers for the whydrop drop-reason lab (tests/lab).

Run inside a namespace by lib.sh (`send`, `py_a`, `py_b`, `bg_py`). Needs Debian's
python3 with python3-scapy. Servers write $READY once listening and, on SIGTERM, their
kernel statistics (if any) to $STATS.

  send COUNT EXPR...            crafted frames out of vA (scapy expressions, see env())
  mib NAME                      a MIB counter of this namespace (nstat spelling)
  udp-drops PORT                sum of the drops column of /proc/net/udp{,6} for PORT
  udp-server FAM PORT [opts]    UDP socket (--rcvbuf N, --filter-drop, --read)
  tcp-server FAM PORT [opts]    TCP listener (--backlog N, --no-accept, --md5 KEY@PEER,
                                --minttl, --close, --read, --hold-lock [--release-on FILE],
                                --rcvbuf N, --fastopen)
  forge FAM PORT [opts] EXPR... connect to [B]:PORT for real, learn the sequence numbers
                                with TCP_REPAIR, then send forged segments seg(...)
                                (--fin: after a close in both directions, the peer in
                                TIME_WAIT; --after FILE: then create FILE, wait for FILE.done)
  handshake FAM PORT [opts] EXPR...  crafted SYN (--ts, --tfo N), SYN-ACK sniffed, the peer
                                left in SYN-RECV; then (--then CMD) forged segments seg(...)
  synack FAM PORT EXPR...       answer [B]'s SYN to [A]:PORT (sniffed) with forgeries seg(...)
  syn-sent FAM DST PORT         a connect() left in SYN-SENT (--wait FILE)
  lose-route FAM DST PORT       an established connection whose routes on vA are flushed,
                                then 3 sends and an abortive close (no route for any)
  udp-send FAM DST PORT COUNT   COUNT real datagrams (--size N, --ttl N, --src ADDR, --gso N)
  tcp-connect FAM DST PORT N    N real connections kept open
  pktsock IFACE [--proto P] [--rcvbuf N]   AF_PACKET socket that never reads
  tap NAME COUNT                tap nobody reads, COUNT datagrams routed into it
  tap-drop MODE NAME COUNT      a tap that drops COUNT frames (txfilter, ebpf, down, vnethdr)
  unix oob|close|disconnect N   AF_UNIX drop reasons
"""
import ctypes, mmap, os, signal, socket, struct, sys, subprocess, threading, time

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


def env():
    from scapy import all as S
    e = dict(vars(S))
    for k in ('A4', 'B4', 'A6', 'B6', 'MAC_A', 'MAC_B'):
        e[k] = os.environ[k]
    e['E'] = S.Ether(src=os.environ['MAC_A'], dst=os.environ['MAC_B'])
    return e


def sendp_all(pkts, count=1, iface='vA'):
    from scapy.all import conf
    s = conf.L2socket(iface=iface)
    raw = [bytes(p) for p in pkts]
    errs = 0
    for _ in range(count):
        for r in raw:
            try:
                s.send(r)
            except OSError:   # ENOBUFS/EPERM: dropped on our own egress (tc, qdisc)
                errs += 1
    s.close()
    return errs


def cmd_send(argv):
    pos, kw = opts(argv)
    count = int(pos[0])
    e = env()
    pkts = []
    for expr in pos[1:]:
        v = eval(expr, e)
        pkts.extend(v if isinstance(v, list) else [v])
    sendp_all(pkts, count, kw.get('iface', 'vA'))


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


def bind_addr(fam, port):
    return ('0.0.0.0', port) if fam == socket.AF_INET else ('::', port)


def cmd_udp_server(argv):
    pos, kw = opts(argv)
    fam, port = AF[pos[0]], int(pos[1])
    s = socket.socket(fam, socket.SOCK_DGRAM)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    if 'rcvbuf' in kw:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, int(kw['rcvbuf']))
    if 'rcvbuf_force' in kw:
        s.setsockopt(socket.SOL_SOCKET, 33, int(kw['rcvbuf_force']))  # SO_RCVBUFFORCE
    if 'filter_drop' in kw:
        # classic BPF: "ret #0" -- accept nothing
        prog = struct.pack('HBBI', 0x06, 0, 0, 0)
        buf = ctypes.create_string_buffer(prog)
        fprog = struct.pack('HL', 1, ctypes.addressof(buf))
        s.setsockopt(socket.SOL_SOCKET, 26, fprog)  # SO_ATTACH_FILTER
    s.bind(bind_addr(fam, port))
    ready()
    if 'read' in kw:
        s.settimeout(0.2)
        ev = threading.Event()
        signal.signal(signal.SIGTERM, lambda *a: ev.set())
        while not ev.is_set():
            try:
                s.recv(65536)
            except (socket.timeout, InterruptedError):
                pass
        sys.exit(0)
    wait_term()


def md5sig(fam, peer, key):
    """struct tcp_md5sig for peer address with key"""
    if fam == socket.AF_INET:
        sa = struct.pack('!HH4s', 0, 0, socket.inet_pton(fam, peer))
        sa = struct.pack('H', socket.AF_INET) + sa[2:]
    else:
        sa = struct.pack('H', socket.AF_INET6) + struct.pack('!HI16sI', 0, 0, socket.inet_pton(fam, peer), 0)
    sa = sa.ljust(128, b'\0')
    key = key.encode()
    return sa + struct.pack('BBHI', 0, 0, len(key), 0) + key.ljust(80, b'\0')


def hold_lock(conn):
    """Make the socket owned by this task for good: a send() whose user buffer faults
    into userfaultfd that nobody services keeps lock_sock() held (tcp_sendmsg)."""
    libc = ctypes.CDLL(None, use_errno=True)
    SYS_userfaultfd = 323
    UFFDIO_API, UFFDIO_REGISTER = 0xc018aa3f, 0xc020aa00
    fd = libc.syscall(SYS_userfaultfd, os.O_CLOEXEC)
    if fd < 0:
        raise OSError(ctypes.get_errno(), 'userfaultfd')
    api = ctypes.create_string_buffer(struct.pack('QQQ', 0xAA, 0, 0))
    if libc.ioctl(fd, UFFDIO_API, api) < 0:
        raise OSError(ctypes.get_errno(), 'UFFDIO_API')
    size = 1 << 16
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    addr = libc.mmap(None, size, 3, 0x22, -1, 0)  # PROT_READ|WRITE, MAP_PRIVATE|ANON
    reg = ctypes.create_string_buffer(struct.pack('QQQQ', addr, size, 1, 0))  # MODE_MISSING
    if libc.ioctl(fd, UFFDIO_REGISTER, reg) < 0:
        raise OSError(ctypes.get_errno(), 'UFFDIO_REGISTER')
    libc.send.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    t = threading.Thread(target=lambda: libc.send(conn.fileno(), addr, 4096, 0), daemon=True)
    t.start()
    # the uffd turns readable once send() has faulted, i.e. once it holds the socket lock
    import select
    select.select([fd], [], [], 3)
    return fd, t


def cmd_tcp_server(argv):
    pos, kw = opts(argv)
    fam, port = AF[pos[0]], int(pos[1])
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if fam == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    if 'rcvbuf' in kw:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, int(kw['rcvbuf']))
    if 'md5' in kw:
        key, peer = kw['md5'].split('@')
        s.setsockopt(IPPROTO_TCP, TCP_MD5SIG, md5sig(fam, peer, key))
    if 'fastopen' in kw:   # TFO server without cookie (also needs net.ipv4.tcp_fastopen & 2)
        s.setsockopt(IPPROTO_TCP, TCP_FASTOPEN, 16)
        s.setsockopt(IPPROTO_TCP, TCP_FASTOPEN_NO_COOKIE, 1)
    if 'minttl' in kw:
        if fam == socket.AF_INET:
            s.setsockopt(socket.IPPROTO_IP, 21, 255)     # IP_MINTTL
        else:
            s.setsockopt(socket.IPPROTO_IPV6, 73, 255)   # IPV6_MINHOPCOUNT
    s.bind(bind_addr(fam, port))
    s.listen(int(kw.get('backlog', 16)))
    ready()
    if 'no_accept' in kw:
        wait_term()
    conns = []
    s.settimeout(0.2)
    ev = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: ev.set())
    while not ev.is_set():
        try:
            c, _ = s.accept()
        except (socket.timeout, InterruptedError):
            continue
        if 'close' in kw:
            c.close()
            continue
        conns.append(c)
        if 'drain_on' in kw:   # TCP_ZEROWINDOW: on request, shutdown(SHUT_RD) and read all
            def drain(c=c, f=kw['drain_on']):
                while not os.path.exists(f):
                    time.sleep(0.02)
                c.shutdown(socket.SHUT_RD)
                c.setblocking(False)
                try:
                    while c.recv(65536):
                        pass
                except BlockingIOError:
                    pass
                open(f + '.done', 'w').write('1\n')
            threading.Thread(target=drain, daemon=True).start()
        if 'hold_lock' in kw:
            fd, t = hold_lock(c)
            if 'release_on' in kw:   # TCP_CLOSE: on request, let send() finish (the backlog runs)
                def release(fd=fd, t=t, f=kw['release_on']):
                    while not os.path.exists(f):
                        time.sleep(0.02)
                    os.close(fd)   # the fault is retried without userfaultfd and completes
                    t.join(3)
                    open(f + '.done', 'w').write('1\n')
                threading.Thread(target=release, daemon=True).start()
            open(os.environ['READY'] + '.locked', 'w').write('1\n')
        if 'read' in kw:
            threading.Thread(target=lambda c=c: [c.recv(65536) for _ in iter(int, 1)], daemon=True).start()
    sys.exit(0)


def tcp_seqs(s):
    """(snd_nxt, rcv_nxt, peer window) of a connected socket, through TCP_REPAIR"""
    s.setsockopt(IPPROTO_TCP, TCP_REPAIR, 1)
    s.setsockopt(IPPROTO_TCP, TCP_REPAIR_QUEUE, TCP_SEND_QUEUE)
    snd = struct.unpack('I', s.getsockopt(IPPROTO_TCP, TCP_QUEUE_SEQ, 4))[0]
    s.setsockopt(IPPROTO_TCP, TCP_REPAIR_QUEUE, TCP_RECV_QUEUE)
    rcv = struct.unpack('I', s.getsockopt(IPPROTO_TCP, TCP_QUEUE_SEQ, 4))[0]
    snd_wl1, snd_wnd, max_window, rcv_wnd, rcv_wup = struct.unpack(
        '5I', s.getsockopt(IPPROTO_TCP, TCP_REPAIR_WINDOW, 20))
    s.setsockopt(IPPROTO_TCP, TCP_REPAIR, TCP_REPAIR_OFF_NO_WP)
    return snd, rcv, snd_wnd


def outq_empty(s, timeout=3.0):
    import fcntl
    t0 = time.time()
    while time.time() - t0 < timeout:
        n = struct.unpack('i', fcntl.ioctl(s.fileno(), SIOCOUTQ, b'\0' * 4))[0]
        if n == 0:
            return
        time.sleep(0.01)
    raise SystemExit('send queue did not drain')


def cmd_forge(argv):
    """connect for real, then forge segments on the established connection.
    --send N: send N real bytes first; --ts: keep TCP timestamps (PAWS)."""
    from scapy import all as S
    pos, kw = opts(argv)
    fam, port = AF[pos[0]], int(pos[1])
    dst = os.environ['B4'] if fam == socket.AF_INET else os.environ['B6']
    c = socket.socket(fam, socket.SOCK_STREAM)
    c.connect((dst, port))
    if 'wait' in kw:   # a file the server writes when it is ready for the forgery
        t0 = time.time()
        while not os.path.exists(kw['wait']) and time.time() - t0 < 5:
            time.sleep(0.02)
    if 'send' in kw:
        c.send(b'x' * int(kw['send']))
    outq_empty(c)
    time.sleep(0.05)
    snd, rcv, wnd = tcp_seqs(c)
    snd0 = snd
    sport = c.getsockname()[1]
    ts_now = None
    if 'ts' in kw:
        ts_now = struct.unpack('I', c.getsockopt(IPPROTO_TCP, TCP_TIMESTAMP, 4))[0]
    e = env()
    if fam == socket.AF_INET:
        L3 = S.IP(src=os.environ['A4'], dst=dst)
    else:
        L3 = S.IPv6(src=os.environ['A6'], dst=dst)

    def seg(seq=None, ack=None, flags='A', data=b'', tsval=None, window=1000):
        snd = e['SEQ'] if 'SEQ' in e else snd0
        o = []
        if tsval is not None:
            o = [('NOP', None), ('NOP', None), ('Timestamp', (tsval & 0xffffffff, 0))]
        p = e['E'] / L3 / S.TCP(sport=sport, dport=port, flags=flags, window=window,
                                seq=(snd if seq is None else seq) & 0xffffffff,
                                ack=(rcv if ack is None else ack) & 0xffffffff, options=o)
        if data:
            p = p / S.Raw(data)
        return p
    if 'fill' in kw:
        # fill the peer's receive window until it advertises 0, following its ACKs
        # (sniffed: our own socket ignores ACKs of data it never sent). Assumes the peer
        # does not scale its window (small SO_RCVBUF).
        last = {}

        def peer(p):
            if S.TCP in p and p[S.TCP].sport == port and p[S.TCP].dport == sport:
                last['ack'], last['win'] = p[S.TCP].ack, p[S.TCP].window
        sn = S.AsyncSniffer(iface='vA', prn=peer, store=False)
        sn.start()
        time.sleep(0.3)
        nxt, win = snd, wnd
        for _ in range(200):
            if win == 0:
                break
            n = min(1400, win)
            last.clear()
            sendp_all([seg(seq=nxt, data=b'f' * n)])
            t0 = time.time()
            while last.get('ack') != (nxt + n) & 0xffffffff and time.time() - t0 < 0.5:
                time.sleep(0.005)
            if last.get('ack') != (nxt + n) & 0xffffffff:
                sys.exit('peer did not acknowledge the fill data')
            nxt, win = nxt + n, last['win']
        sn.stop()
        if win:
            sys.exit('peer window never reached 0')
        snd, wnd = nxt, 0
    if 'drain' in kw:   # ask the server to shut down reading and drain (ZEROWINDOW)
        open(kw['drain'], 'w').write('go\n')
        t0 = time.time()
        while not os.path.exists(kw['drain'] + '.done') and time.time() - t0 < 3:
            time.sleep(0.02)
        time.sleep(0.05)
    if 'fin' in kw:
        # TIME_WAIT: wait for the peer's FIN (it closed first), send ours and wait until our
        # side is CLOSED: the peer is then in TIME_WAIT (its ACKs to us are answered with RSTs,
        # which the scenario drops with nft). Our FIN took one sequence number.
        c.settimeout(3)
        while c.recv(65536):
            pass
        snd, rcv, wnd = tcp_seqs(c)   # rcv now counts the peer's FIN
        c.shutdown(socket.SHUT_WR)
        t0 = time.time()
        while c.getsockopt(IPPROTO_TCP, TCP_INFO, 1)[0] != TCP_CLOSE and time.time() - t0 < 3:
            time.sleep(0.01)
        if c.getsockopt(IPPROTO_TCP, TCP_INFO, 1)[0] != TCP_CLOSE:
            sys.exit('connection did not close')
        snd += 1
    e.update(SEQ=snd, ACK=rcv, WIN=wnd, TS=ts_now, seg=seg)
    _eval_send(pos[2:], kw, e)
    time.sleep(0.1)
    if 'after' in kw:   # then ask the server to act (e.g. release the socket lock), wait for it
        open(kw['after'], 'w').write('go\n')
        t0 = time.time()
        while not os.path.exists(kw['after'] + '.done') and time.time() - t0 < 5:
            time.sleep(0.02)
        if not os.path.exists(kw['after'] + '.done'):
            sys.exit('server did not act on %s' % kw['after'])
        time.sleep(0.1)
    ready()
    wait_term()


def cmd_listen_overflow(argv):
    """K crafted SYNs left half-open (their SYN-ACKs are sniffed, then dropped by nft in
    this namespace), FILL real connections to fill the accept queue, then the K final ACKs."""
    from scapy import all as S
    fam, port, k, fill = AF[argv[0]], int(argv[1]), int(argv[2]), int(argv[3])
    e = env()
    if fam == socket.AF_INET:
        dst, L3 = os.environ['B4'], S.IP(src=os.environ['A4'], dst=os.environ['B4'])
    else:
        dst, L3 = os.environ['B6'], S.IPv6(src=os.environ['A6'], dst=os.environ['B6'])
    isn = {}

    def synack(p):
        if S.TCP in p and p[S.TCP].sport == port and (int(p[S.TCP].flags) & 0x12) == 0x12:
            isn.setdefault(p[S.TCP].dport, p[S.TCP].seq)
    sn = S.AsyncSniffer(iface='vA', prn=synack, store=False)
    sn.start()
    time.sleep(0.3)
    sports = [41000 + i for i in range(k)]
    sendp_all([e['E'] / L3 / S.TCP(sport=sp, dport=port, flags='S', seq=1000) for sp in sports])
    t0 = time.time()
    while len(isn) < k and time.time() - t0 < 3:
        time.sleep(0.02)
    sn.stop()
    if len(isn) < k:
        sys.exit('saw %d SYN-ACKs of %d' % (len(isn), k))
    socks = []
    for _ in range(fill):
        c = socket.socket(fam, socket.SOCK_STREAM)
        c.settimeout(2)
        c.connect((dst, port))
        socks.append(c)
    time.sleep(0.1)
    sendp_all([e['E'] / L3 / S.TCP(sport=sp, dport=port, flags='A', seq=1001, ack=isn[sp] + 1)
               for sp in sports])
    time.sleep(0.1)
    ready()
    wait_term()


def wait_key(d, key, secs):
    """wait until a sniffer callback has put key into d, at most secs"""
    t0 = time.time()
    while key not in d and time.time() - t0 < secs:
        time.sleep(0.02)


def l3_a_to_b(S, fam):
    """the IP header of a crafted packet from [A] to [B]"""
    if fam == socket.AF_INET:
        return S.IP(src=os.environ['A4'], dst=os.environ['B4'])
    return S.IPv6(src=os.environ['A6'], dst=os.environ['B6'])


def _tcp_seg(S, e, L3, sport, dport, seq, ack, flags='A', data=b'', tsval=None, tsecr=0,
             window=1000, options=None):
    """a crafted TCP segment; tsval= adds a Timestamp option (tsval, tsecr)"""
    o = list(options or [])
    if tsval is not None:
        o += [('NOP', None), ('NOP', None), ('Timestamp', (tsval & 0xffffffff, tsecr & 0xffffffff))]
    p = e['E'] / L3 / S.TCP(sport=sport, dport=dport, flags=flags, window=window,
                            seq=seq & 0xffffffff, ack=ack & 0xffffffff, options=o)
    if data:
        p = p / S.Raw(data)
    return p


def _eval_send(pos, kw, e):
    """evaluate each scapy expression of pos in e, send them all --count times"""
    count = int(kw.get('count', 1))
    pkts = []
    for expr in pos:
        v = eval(expr, e)
        pkts.extend(v if isinstance(v, list) else [v])
    sendp_all(pkts, count)


def cmd_handshake(argv):
    """A crafted SYN from [A]:SPORT (41000) to [B]:PORT, its SYN-ACK sniffed (the scenario's nft
    drops it in A, so A's kernel sends no RST): the request (or TFO child) is left in SYN-RECV.
    Then forged segments seg(seq=SEQ, ack=ACK, flags='A', data=, tsval=, tsecr=).
    --ts: the SYN carries TSval TS (TSE: the SYN-ACK's TSval); --tfo N: the SYN carries N bytes
    of data (TCP Fast Open without cookie); --then CMD: a shell command run after the SYN-ACK,
    before the forgeries. Names: ISN (the peer's), SEQ, ACK, TS, TSE."""
    from scapy import all as S
    pos, kw = opts(argv)
    fam, port = AF[pos[0]], int(pos[1])
    sport = int(kw.get('sport', 41000))
    e = env()
    L3 = l3_a_to_b(S, fam)
    got = {}

    def synack(p):
        t = p[S.TCP] if S.TCP in p else None
        if t and t.sport == port and t.dport == sport and (int(t.flags) & 0x12) == 0x12:
            got.setdefault('isn', t.seq)
            for k, v in t.options:
                if k == 'Timestamp':
                    got.setdefault('tsval', v[0])
    sn = S.AsyncSniffer(iface='vA', prn=synack, store=False)
    sn.start()
    time.sleep(0.3)
    isn0, ts = 1000, 100000
    data = b'd' * int(kw.get('tfo', 0))
    o = [('MSS', 1460)]
    sendp_all([_tcp_seg(S, e, L3, sport, port, isn0, 0, 'S', data,
                        ts if 'ts' in kw else None, 0, 65535, o)])
    wait_key(got, 'isn', 3)
    sn.stop()
    if 'isn' not in got:
        sys.exit('no SYN-ACK seen')
    if 'ts' in kw and 'tsval' not in got:
        sys.exit('the SYN-ACK carries no timestamp')
    nxt = isn0 + 1 + len(data)

    def seg(seq=None, ack=None, flags='A', data=b'', tsval=None, tsecr=None, window=1000):
        return _tcp_seg(S, e, L3, sport, port, nxt if seq is None else seq,
                        got['isn'] + 1 if ack is None else ack, flags, data, tsval,
                        got.get('tsval', 0) if tsecr is None else tsecr, window)
    e.update(ISN=got['isn'], SEQ=nxt, ACK=got['isn'] + 1, TS=ts, TSE=got.get('tsval'), seg=seg)
    if 'then' in kw:    # a shell command between the SYN-ACK and the forgeries
        subprocess.run(kw['then'], shell=True, check=True)
    _eval_send(pos[2:], kw, e)
    time.sleep(0.1)
    ready()
    wait_term()


def cmd_synack(argv):
    """Answer a real connect() from [B] to [A]:PORT (its SYN sniffed; the scenario's nft drops
    it in A) with forged segments seg(seq=, ack=PSEQ, flags='SA', data=): the client is in
    SYN-SENT. Names: PISN (the client's ISN), PSEQ (PISN+1), PPORT. Writes $READY as soon as
    it sniffs, and $READY.done once the forgeries are sent (syn-sent --wait waits for it)."""
    from scapy import all as S
    pos, kw = opts(argv)
    fam, port = AF[pos[0]], int(pos[1])
    e = env()
    L3 = l3_a_to_b(S, fam)
    got = {}

    def syn(p):
        t = p[S.TCP] if S.TCP in p else None
        if t and t.dport == port and (int(t.flags) & 0x12) == 0x02:
            got.setdefault('syn', (t.sport, t.seq))
    sn = S.AsyncSniffer(iface='vA', prn=syn, store=False)
    sn.start()
    time.sleep(0.3)
    ready()
    wait_key(got, 'syn', 5)
    sn.stop()
    if 'syn' not in got:
        sys.exit('no SYN seen')
    pport, pisn = got['syn']

    def seg(seq=5000, ack=None, flags='SA', data=b'', window=1000):
        return _tcp_seg(S, e, L3, port, pport, seq, pisn + 1 if ack is None else ack, flags,
                        data, None, 0, window)
    e.update(PISN=pisn, PSEQ=pisn + 1, PPORT=pport, seg=seg)
    _eval_send(pos[2:], kw, e)
    time.sleep(0.1)
    open(os.environ['READY'] + '.done', 'w').write('1\n')
    wait_term()


def cmd_syn_sent(argv):
    """A non-blocking connect() to DST:PORT left in SYN-SENT; --wait FILE: $READY only once
    FILE exists (the forger's $READY.done)."""
    pos, kw = opts(argv)
    fam, dst, port = AF[pos[0]], pos[1], int(pos[2])
    c = socket.socket(fam, socket.SOCK_STREAM)
    c.setblocking(False)
    try:
        c.connect((dst, port))
    except BlockingIOError:
        pass
    if 'wait' in kw:
        t0 = time.time()
        while not os.path.exists(kw['wait']) and time.time() - t0 < 6:
            time.sleep(0.02)
        if not os.path.exists(kw['wait']):
            sys.exit('%s never appeared' % kw['wait'])
    ready()
    wait_term()


def cmd_lose_route(argv):
    """An established connection to DST:PORT whose routes on IFACE (vA) are flushed, then
    3 sends 0.3 s apart and an abortive close (its RST): each finds no route out. Returns
    when the socket is gone, so that the kernel's counter is final."""
    pos, kw = opts(argv)
    fam, dst, port = AF[pos[0]], pos[1], int(pos[2])
    c = socket.create_connection((dst, port), timeout=3)
    c.sendall(b'before')
    time.sleep(0.2)
    ipv = '-4' if fam == socket.AF_INET else '-6'
    subprocess.run(['ip', ipv, 'route', 'flush', 'dev', kw.get('iface', 'vA')], check=True)
    for _ in range(3):
        c.send(b'x' * 100)
        time.sleep(0.3)
    c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
    c.close()
    time.sleep(0.2)


def cmd_udp_send(argv):
    pos, kw = opts(argv)
    fam, dst, port, n = AF[pos[0]], pos[1], int(pos[2]), int(pos[3])
    s = socket.socket(fam, socket.SOCK_DGRAM)
    if 'src' in kw:
        s.bind((kw['src'], 0))
    errs = 0
    data = b'x' * int(kw.get('size', 100))
    if 'gso' in kw:     # UDP GSO: one send is cut into size/gso datagrams below UDP
        s.setsockopt(socket.SOL_UDP, 103, int(kw['gso']))   # UDP_SEGMENT
    for _ in range(n):
        try:
            s.sendto(data, (dst, port))
        except OSError:
            errs += 1
        if 'interval' in kw:
            time.sleep(float(kw['interval']))
    print(errs)


def cmd_tcp_connect(argv):
    pos, kw = opts(argv)
    fam, dst, port, n = AF[pos[0]], pos[1], int(pos[2]), int(pos[3])
    socks = []
    for _ in range(n):
        c = socket.socket(fam, socket.SOCK_STREAM)
        c.settimeout(3)
        c.connect((dst, port))
        socks.append(c)
    if 'then_send' in kw:   # ABORT_ON_DATA: peer closed, we keep sending
        time.sleep(float(kw.get('wait', 0.3)))
        for c in socks:
            try:
                c.send(b'y' * 10)
            except OSError:
                pass
    if 'timeout' in kw:  # TCP_USER_TIMEOUT in ms
        for c in socks:
            c.setsockopt(IPPROTO_TCP, 18, int(kw['timeout']))
    if 'send' in kw:
        for c in socks:
            try:
                c.send(b'z' * int(kw['send']))
            except OSError:
                pass
    ready()
    wait_term()


def cmd_pktsock(argv):
    pos, kw = opts(argv)
    proto = int(kw.get('proto', '0x0003'), 0)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(proto))
    if 'rcvbuf' in kw:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, int(kw['rcvbuf']))
    s.bind((pos[0], proto))

    def fin():
        st = s.getsockopt(263, 6, 8)  # SOL_PACKET, PACKET_STATISTICS: tp_packets, tp_drops
        packets, drops = struct.unpack('II', st)
        stats('%d %d' % (packets, drops))
        s.close()
    ready()
    wait_term(fin)


def cmd_tap(argv):
    import fcntl
    name, n = argv[0], int(argv[1])
    fd = os.open('/dev/net/tun', os.O_RDWR)
    TUNSETIFF = 0x400454ca
    fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH', name.encode(), 0x0002 | 0x1000))
    os.system('sysctl -q -w net.ipv6.conf.%s.disable_ipv6=1; ip link set %s txqueuelen 2 up; '
              'ip addr add 203.0.113.1/24 dev %s; '
              'ip neigh replace 203.0.113.5 lladdr 02:00:00:00:0c:05 dev %s nud permanent' % (name, name, name, name))
    before = int(open('/sys/class/net/%s/statistics/tx_dropped' % name).read())
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for _ in range(n):
        s.sendto(b'x' * 100, ('203.0.113.5', 9))
    after = int(open('/sys/class/net/%s/statistics/tx_dropped' % name).read())
    stats(after - before)
    ready()
    wait_term()


TUNSETIFF, TUNSETTXFILTER, TUNSETFILTEREBPF = 0x400454ca, 0x400454d1, 0x800454e1
IFF_TAP, IFF_NO_PI = 0x0002, 0x1000


def bpf_prog_ret0():
    """a BPF_PROG_TYPE_SOCKET_FILTER program "r0 = 0; exit" loaded with bpf(2); its fd"""
    insns = struct.pack('<BBhi', 0xb7, 0, 0, 0) + struct.pack('<BBhi', 0x95, 0, 0, 0)
    ibuf = ctypes.create_string_buffer(insns)
    lic = ctypes.create_string_buffer(b'GPL')
    # union bpf_attr, BPF_PROG_LOAD: prog_type, insn_cnt, insns, license (rest zero)
    attr = ctypes.create_string_buffer(struct.pack('=IIQQ', 1, 2, ctypes.addressof(ibuf),
                                                   ctypes.addressof(lic)).ljust(128, b'\0'))
    libc = ctypes.CDLL(None, use_errno=True)
    nr = {'x86_64': 321, 'aarch64': 280}[os.uname().machine]   # SYS_bpf
    fd = libc.syscall(nr, 5, attr, 128)   # BPF_PROG_LOAD
    if fd < 0:
        sys.exit('bpf(BPF_PROG_LOAD): %s' % os.strerror(ctypes.get_errno()))
    return fd


def cmd_tap_drop(argv):
    """tap-drop MODE NAME COUNT: a tap made to drop COUNT frames, for these reasons:
    txfilter  TUNSETTXFILTER accepts only 02:00:00:00:0c:99; COUNT datagrams routed into
              the tap go to 02:00:00:00:0c:05 (TAP_TXFILTER in tun_net_xmit)
    ebpf      TUNSETFILTEREBPF with a socket-filter program returning 0; COUNT datagrams
              routed into the tap (TAP_FILTER in tun_net_xmit)
    down      the tap is left down; COUNT frames written to its fd (each write fails
              with EIO: DEV_READY in tun_get_user)
    vnethdr   NAME is an existing macvtap (its queues have IFF_VNET_HDR by default);
              COUNT frames written to its character device behind a virtio_net_hdr
              whose gso_type (2) does not exist (each write fails with EINVAL: DEV_HDR
              in tap_get_user; a tun/tap device frees the same frames as NOT_SPECIFIED)
    Writes $STATS: the number of frames the kernel refused (writes that failed, or the
    tap's tx_dropped increase), then waits for SIGTERM."""
    import fcntl
    mode, name, n = argv[0], argv[1], int(argv[2])
    if mode == 'vnethdr':   # macvtap: /dev/tapIFINDEX, made here from its sysfs numbers
        d = '/sys/class/net/%s/macvtap' % name
        major, minor = open('%s/%s/dev' % (d, os.listdir(d)[0])).read().split(':')
        node = os.path.join(os.environ.get('T', '/tmp'), name + '.chr')
        os.mknod(node, 0o600 | 0o020000, os.makedev(int(major), int(minor)))
        fd = os.open(node, os.O_RDWR)
        os.unlink(node)
    else:
        fd = os.open('/dev/net/tun', os.O_RDWR)
        fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH', name.encode(), IFF_TAP | IFF_NO_PI))
    subprocess.run(['sysctl', '-q', '-w', 'net.ipv6.conf.%s.disable_ipv6=1' % name], check=True)
    refused = 0
    if mode in ('txfilter', 'ebpf'):
        if mode == 'txfilter':
            # struct tun_filter { __u16 flags; __u16 count; __u8 addr[][ETH_ALEN]; }
            fcntl.ioctl(fd, TUNSETTXFILTER, struct.pack('HH6s', 0, 1, bytes.fromhex('02000000' '0c99')))
        else:
            prog = bpf_prog_ret0()
            fcntl.ioctl(fd, TUNSETFILTEREBPF, struct.pack('i', prog))
        for cmd in ('ip link set %s up', 'ip addr add 203.0.113.1/24 dev %s',
                    'ip neigh replace 203.0.113.5 lladdr 02:00:00:00:0c:05 dev %s nud permanent'):
            subprocess.run((cmd % name).split(), check=True)
        txd = '/sys/class/net/%s/statistics/tx_dropped' % name
        before = int(open(txd).read())
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for _ in range(n):
            s.sendto(b'x' * 100, ('203.0.113.5', 9))
        refused = int(open(txd).read()) - before
    else:
        # 02:00:00:00:0c:06 -> 02:00:00:00:0c:05, IPv4 203.0.113.6 -> 203.0.113.5, UDP 9 -> 9
        frame = (bytes.fromhex('020000000c05' '020000000c06' '0800') +
                 bytes.fromhex('4500001c000040004011' '0000' 'cb007106' 'cb007105') +
                 bytes.fromhex('0009000900080000'))
        if mode == 'vnethdr':
            # struct virtio_net_hdr: flags, gso_type, hdr_len, gso_size, csum_start, csum_offset
            frame = struct.pack('<BBHHHH', 0, 2, 0, 0, 0, 0) + frame
        else:
            subprocess.run(['ip', 'link', 'set', name, 'down'], check=True)
        for _ in range(n):
            try:
                os.write(fd, frame)
            except OSError:
                refused += 1
    stats(refused)
    ready()
    wait_term()


def cmd_unix(argv):
    what, n = argv[0], int(argv[1])
    if what == 'oob':
        for _ in range(n):
            a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            a.send(b'a', socket.MSG_OOB)
            a.send(b'b')
            b.recv(2)
            a.close(); b.close()
    elif what == 'close':
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        for _ in range(n):
            a.send(b'q')
        b.close()
        a.close()
    elif what == 'disconnect':
        import tempfile
        d = tempfile.mkdtemp()
        pa, pb, pc = ['%s/%s' % (d, x) for x in 'abc']
        a = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); a.bind(pa)
        b = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); b.bind(pb)
        c = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); c.bind(pc)
        a.connect(pb)
        for _ in range(n):
            b.sendto(b'q', pa)
        a.connect(pc)
        for s in (a, b, c):
            s.close()
        for p in (pa, pb, pc):
            os.unlink(p)
        os.rmdir(d)


CMDS = {'send': cmd_send, 'mib': cmd_mib, 'udp-drops': cmd_udp_drops,
        'udp-server': cmd_udp_server, 'tcp-server': cmd_tcp_server, 'forge': cmd_forge,
        'udp-send': cmd_udp_send, 'tcp-connect': cmd_tcp_connect, 'pktsock': cmd_pktsock,
        'tap': cmd_tap, 'tap-drop': cmd_tap_drop, 'unix': cmd_unix, 'listen-overflow': cmd_listen_overflow,
        'lose-route': cmd_lose_route, 'handshake': cmd_handshake, 'synack': cmd_synack, 'syn-sent': cmd_syn_sent}

if __name__ == '__main__':
    if len(sys.argv) < 2 or sys.argv[1] not in CMDS:
        sys.exit(__doc__)
    CMDS[sys.argv[1]](sys.argv[2:])
