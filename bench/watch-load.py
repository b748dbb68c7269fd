#!/usr/bin/env python3
"""watch-load.py: scrape an HTTP /metrics endpoint at a fixed rate and
report the latency of each scrape and the resident memory of the process
serving it (bench/watch-load.sh runs it against `supernode watch`).

    watch-load.py URL PID [--rate 10] [--seconds 60] [--label NAME]

Prints one line of figures; exits 1 when a scrape failed."""
import argparse
import http.client
import time
import urllib.parse


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    import os
    tck = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tck


def pct(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[k]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("pid", type=int)
    ap.add_argument("--rate", type=float, default=10)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--label", default="agent")
    a = ap.parse_args()
    u = urllib.parse.urlsplit(a.url)
    lat, rss, failures, size = [], [], 0, 0
    cpu0 = cpu_s(a.pid)
    t0 = time.monotonic()
    n = int(a.rate * a.seconds)
    for i in range(n):
        due = t0 + i / a.rate
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        s = time.monotonic()
        try:
            c = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
            c.request("GET", u.path)
            r = c.getresponse()
            body = r.read()
            c.close()
            if r.status != 200:
                failures += 1
            size = len(body)
        except OSError:
            failures += 1
        lat.append((time.monotonic() - s) * 1e3)
        if i % max(1, int(a.rate)) == 0:
            rss.append(rss_kib(a.pid))
    left = t0 + a.seconds - time.monotonic()
    if left > 0:  # the whole run, however few the scrapes
        time.sleep(left)
    wall = time.monotonic() - t0
    cpu = cpu_s(a.pid) - cpu0
    half = max(1, len(rss) // 2)
    first, second = sorted(rss[:half]), sorted(rss[half:] or rss[:half])
    print(f"{a.label}: {n} scrapes in {wall:.1f} s, {size} bytes each; "
          f"latency p50 {pct(lat, 0.5):.2f} ms, p99 {pct(lat, 0.99):.2f} ms, "
          f"max {max(lat):.2f} ms; RSS first {rss[0]} KiB, "
          f"median of first half {first[len(first) // 2]} KiB, "
          f"of second half {second[len(second) // 2]} KiB, "
          f"max {max(rss)} KiB; CPU {100 * cpu / wall:.2f}% of a core; "
          f"failures {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
