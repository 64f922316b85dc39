"""Network devices of lab.py: `tap` (a tap nobody reads) and `tap-drop` (a tun/tap or macvtap
made to refuse frames: TX filter, socket-filter eBPF, down, a bad virtio_net_hdr)."""
import ctypes, os, socket, struct, sys, subprocess

from lab_common import ready, stats, wait_term


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
