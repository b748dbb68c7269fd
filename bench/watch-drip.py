#!/usr/bin/env python3
"""watch-drip.py: slow clients against the node agent's HTTP server (issue
29). Keeps CONNS connections from ADDRS loopback addresses (127.0.0.2 on)
open to PORT, each sending its request line at once and then a byte of a
header every DRIP seconds, reconnecting whatever the server closes (as fast
as it is closed), while a fresh client on 127.0.0.1 scrapes /metrics every
0.25 s. Runs SECONDS and stops by itself.

    watch-drip.py PORT [--addrs 4] [--conns 2000] [--drip 3] [--seconds 20]

Prints the connections made and cut, and the scrapes' latency (p50, max)
and failures; exits 1 when a scrape failed or took 1 s or more.
"""
import argparse
import errno
import resource
import socket
import statistics
import threading
import time


def scraper(port, stop, lat, failed):
    while not stop.is_set():
        t0 = time.monotonic()
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
                      b"Connection: close\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            s.close()
            if not data.startswith(b"HTTP/1.1 200"):
                raise OSError("status " + data[:12].decode(errors="replace"))
            lat.append(time.monotonic() - t0)
        except OSError:
            failed.append(time.monotonic() - t0)
        time.sleep(0.25)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("--addrs", type=int, default=4)
    ap.add_argument("--conns", type=int, default=2000)
    ap.add_argument("--drip", type=float, default=3.0)
    ap.add_argument("--seconds", type=float, default=20.0)
    a = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, a.conns + 256)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    socks = [None] * a.conns
    next_drip = [0.0] * a.conns
    started = [False] * a.conns
    made = cut = refused = 0
    stop = threading.Event()
    lat, failed = [], []
    t = threading.Thread(target=scraper, args=(a.port, stop, lat, failed))
    t.start()
    end = time.monotonic() + a.seconds
    while time.monotonic() < end:
        now = time.monotonic()
        # at most 500 new connections a pass, so the loop keeps dripping
        budget = 500
        for i in range(a.conns):
            s = socks[i]
            if s is None:
                if budget == 0:
                    continue
                budget -= 1
                s = socket.socket()
                s.setblocking(False)
                s.bind(("127.0.0.%d" % (2 + i % a.addrs), 0))
                rc = s.connect_ex(("127.0.0.1", a.port))
                if rc not in (0, errno.EINPROGRESS):
                    s.close()
                    refused += 1
                    continue
                socks[i] = s
                made += 1
                started[i] = False
                next_drip[i] = now + 0.1  # once connected
                continue
            if now < next_drip[i]:
                continue
            try:
                if s.recv(1, socket.MSG_DONTWAIT) == b"":
                    raise OSError("closed")
            except BlockingIOError:
                pass
            except OSError:
                s.close()
                socks[i] = None
                cut += 1
                continue
            try:
                # the request line at once, then a byte of a header
                s.send(b"X" if started[i] else b"GET /metrics HTTP/1.1\r\n")
                started[i] = True
            except (BlockingIOError, InterruptedError):
                pass
            except OSError:
                s.close()
                socks[i] = None
                cut += 1
                continue
            next_drip[i] = now + a.drip
        time.sleep(0.05)
    stop.set()
    t.join()
    for s in socks:
        if s is not None:
            s.close()
    lat.sort()
    p50 = statistics.median(lat) * 1e3 if lat else float("nan")
    mx = lat[-1] * 1e3 if lat else float("nan")
    print("drippers: %d connections made from %d addresses (%d refused at "
          "connect), %d cut by the server" % (made, a.addrs, refused, cut))
    print("scrapes: %d answered, p50 %.2f ms, max %.2f ms; %d failed" %
          (len(lat), p50, mx, len(failed)))
    return 1 if failed or not lat or mx >= 1000 else 0


if __name__ == "__main__":
    raise SystemExit(main())
