"""Crafted packets of lab.py, built with scapy and sent out of vA: `send`, and the TCP
forgeries `forge`, `listen-overflow`, `handshake` and `synack` (TCP_REPAIR to learn a real
connection's sequence numbers, sniffers for the peer's answers)."""
import os, socket, struct, sys, subprocess, time

from lab_common import (AF, IPPROTO_TCP, TCP_REPAIR, TCP_REPAIR_QUEUE, TCP_QUEUE_SEQ,
                        TCP_REPAIR_WINDOW, TCP_TIMESTAMP, TCP_INFO, TCP_CLOSE, TCP_RECV_QUEUE,
                        TCP_SEND_QUEUE, TCP_REPAIR_OFF_NO_WP, SIOCOUTQ, ready, wait_term, opts,
                        connect_n)


def env():
    from scapy import all as S
    e = dict(vars(S))
    for k in ('A4', 'B4', 'A6', 'B6', 'MAC_A', 'MAC_B'):
        e[k] = os.environ[k]
    e['E'] = S.Ether(src=os.environ['MAC_A'], dst=os.environ['MAC_B'])
    v = os.environ.get('LAB_V')     # a scenario written once for both families (lib.sh)
    if v in ('4', '6'):
        e['IPX'] = S.IP if v == '4' else S.IPv6
        e['AX'], e['BX'] = e['A' + v], e['B' + v]
        e['FRAG1'] = frag1_v4 if v == '4' else frag1_v6
    return e


def frag1_v4(ident):
    """IPv4 header of a first fragment (offset 0, more to follow) from A to B"""
    from scapy.all import IP
    return IP(src=os.environ['A4'], dst=os.environ['B4'], id=ident, flags='MF', frag=0)


def frag1_v6(ident):
    """IPv6 headers of a first fragment (offset 0, more to follow) from A to B"""
    from scapy.all import IPv6, IPv6ExtHdrFragment
    return IPv6(src=os.environ['A6'], dst=os.environ['B6']) / IPv6ExtHdrFragment(id=ident, m=1, offset=0)


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
    socks = connect_n(fam, dst, port, fill, 2)
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
