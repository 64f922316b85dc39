"""Real sockets of lab.py: `udp-server`, `tcp-server` (TCP-MD5, minimum TTL, a socket lock
held with userfaultfd...), `syn-sent`, `lose-route`, `udp-send`, `tcp-connect`, `pktsock`
(AF_PACKET) and `unix` (AF_UNIX)."""
import ctypes, os, signal, socket, struct, sys, subprocess, threading, time

from lab_common import (AF, IPPROTO_TCP, TCP_MD5SIG, TCP_FASTOPEN, TCP_FASTOPEN_NO_COOKIE,
                        ready, stats, wait_term, opts, connect_n)


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
    socks = connect_n(fam, dst, port, n, 3)
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
