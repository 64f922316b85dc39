#!/usr/bin/python3
"""Development stand-in for `whydrop count --json --netns NAME -d S`, built on bpftrace.

Only for writing scenarios before whydrop exists, or to compare against it:
    WHYDROP=tests/lab/bpftrace-count.py tests/lab/run.sh NO_SOCKET
It attributes a drop to a namespace by skb->dev, else rx_sk, else skb->sk, prints
"whydrop: attached" on stderr when bpftrace is attached, and the whydrop JSON document
on stdout at SIGINT or after -d seconds. Names come from the tracefs format file.
"""
import json, os, re, signal, subprocess, sys, time

def main():
    args = sys.argv[1:]
    if not args or args[0] != 'count':
        sys.exit('bpftrace-count.py: only "count --json --netns NAME -d S" is supported')
    netns, dur = None, 3600.0
    i = 1
    while i < len(args):
        if args[i] == '--netns':
            netns = args[i + 1]; i += 2
        elif args[i] == '-d':
            dur = float(args[i + 1]); i += 2
        else:
            i += 1
    path = netns if netns and '/' in netns else '/run/netns/%s' % netns
    ino = os.stat(path).st_ino
    fmt = open('/sys/kernel/tracing/events/skb/kfree_skb/format').read()
    names = {int(n): s for n, s in re.findall(r'\{ (\d+), "(\w+)" \}', fmt)}
    prog = r'''
tracepoint:skb:kfree_skb {
  $skb = (struct sk_buff *)args->skbaddr;
  $ino = (uint64)0;
  if ($skb->dev != 0) { $ino = $skb->dev->nd_net.net->ns.inum; }
  if ($ino == 0 && args->rx_sk != 0) { $ino = ((struct sock *)args->rx_sk)->__sk_common.skc_net.net->ns.inum; }
  if ($ino == 0 && $skb->sk != 0) { $ino = $skb->sk->__sk_common.skc_net.net->ns.inum; }
  if ($ino == %d) { @c[args->reason, args->location] = count(); }
}
BEGIN { printf("ATTACHED\n"); }
''' % ino
    env = dict(os.environ, BPFTRACE_MAX_MAP_KEYS='4096')
    p = subprocess.Popen(['bpftrace', '-e', prog], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, env=env)
    stop = {'v': False}
    signal.signal(signal.SIGINT, lambda *a: stop.update(v=True))
    signal.signal(signal.SIGTERM, lambda *a: stop.update(v=True))
    for line in p.stdout:
        if 'ATTACHED' in line:
            break
    print('whydrop: attached (bpftrace stand-in)', file=sys.stderr, flush=True)
    t0 = time.time()
    while not stop['v'] and time.time() - t0 < dur and p.poll() is None:
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=8)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
    ksyms = []
    for l in open('/proc/kallsyms'):
        a, t, n = l.split()[:3]
        if t in 'tTwW':
            ksyms.append((int(a, 16), n))
    ksyms.sort()
    import bisect
    addrs = [a for a, _ in ksyms]
    drops, total = [], 0
    for r, loc, c in re.findall(r'@c\[(\d+), (0x[0-9a-f]+|\d+)\]: (\d+)', out):
        r, loc, c = int(r), int(loc, 0), int(c)
        k = bisect.bisect_right(addrs, loc) - 1
        fn = ksyms[k][1] if k >= 0 else '?'
        off = loc - ksyms[k][0] if k >= 0 else loc
        drops.append({'reason': names.get(r, str(r)), 'code': r, 'subsystem': 'core',
                      'function': fn, 'location': '%s+0x%x' % (fn, off), 'count': c})
        total += c
    print(json.dumps({'kernel': os.uname().release, 'duration_s': round(time.time() - t0, 3),
                      'total': total, 'lost_events': 0, 'drops': drops}))

main()
