"""Writes from memory the kernel cannot read (lab.py ucopy): SKB_UCOPY_FAULT where the
kernel has already allocated the packet when the copy from user space faults."""
import ctypes, fcntl, os, struct, subprocess

TUNSETIFF, TUNSETSNDBUF = 0x400454ca, 0x400454d4
IFF_TAP, IFF_NO_PI = 0x0002, 0x1000
BAD = ctypes.c_void_p(0x1000)      # never mapped: the copy faults (EFAULT)


def efault(call):
    """call() through libc; True when it failed with EFAULT"""
    if call() >= 0:
        return False
    return ctypes.get_errno() == 14


def cmd_ucopy(argv):
    """ucopy tap NAME COUNT: COUNT writes of 100 bytes from an unmapped address to a
    tap (up, IPv6 off), each failing with EFAULT after tun_get_user allocated the frame.
    The tap's socket buffer is set (not the default), so that the frame is copied into
    an skb: with the default one the skb is built after the copy, and a fault then
    leaves nothing to free. (On 6.18 a Unix socket's send from such memory faults
    before anything is allocated: no drop.) Prints the number of writes that failed
    with EFAULT."""
    libc = ctypes.CDLL(None, use_errno=True)
    name, n, failed = argv[1], int(argv[2]), 0
    fd = os.open('/dev/net/tun', os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH', name.encode(), IFF_TAP | IFF_NO_PI))
    fcntl.ioctl(fd, TUNSETSNDBUF, struct.pack('i', 1 << 20))
    subprocess.run(['sysctl', '-q', '-w', 'net.ipv6.conf.%s.disable_ipv6=1' % name], check=True)
    subprocess.run(['ip', 'link', 'set', name, 'up'], check=True)
    for _ in range(n):
        failed += efault(lambda: libc.write(fd, BAD, 100))
    os.close(fd)
    print(failed)
