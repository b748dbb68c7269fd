#!/usr/bin/env python3
"""redfish-mock.py: a small Redfish service for the BMC collector's tests
(issue 15), Python standard library only.

    redfish-mock.py [--port N] [--dir DIR] [--user U --password P]
                    [--tls-cert PEM --tls-key PEM]

Serves DIR (default tests/fixtures/redfish): the resource at
/redfish/<rest> is DIR/<rest>/index.json, the layout of DMTF's mockups.
Listens on 127.0.0.1 (HTTPS with --tls-cert and --tls-key); port 0 (the
default) picks a free one. The first line on stdout is the port.

Basic auth is checked on every resource but the service root, as a real
service does (DSP0266: the root answers without authentication). The
documents live in memory; a test changes them between intervals and sets
faults through the control endpoints (no auth, loopback only):

    POST /_mock/set    {"path": P, "pointer": "/A/0/B", "value": V}
                       set one member of a resource (RFC 6901 pointer;
                       a missing last member is added); a list of such
                       objects sets them all at once (one interval's
                       step of a scenario)
    POST /_mock/fault  {"path": P, "mode": M, "seconds": S}
                       M: hang (sleep S seconds, default 30, then answer),
                       malformed (cut JSON), huge (8 MiB with a
                       Content-Length), huge-stream (8 MiB without one),
                       500, 404, redirect-off (302 to another host),
                       redirect-on (302 to the same path plus "/"),
                       deep (JSON nested 10000 levels), binary (random
                       bytes), none (clear); "times": N applies it to
                       the next N requests only
    POST /_mock/auth   {"user": U, "password": P}  change the credentials
    POST /_mock/reset  reload DIR, clear faults
    GET  /_mock/hits   {"path": count} of resource requests so far
"""
import argparse
import base64
import json
import os
import random
import socket
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def load(root):
    docs = {}
    for d, _, files in os.walk(root):
        if "index.json" in files:
            rel = os.path.relpath(d, root)
            key = "/redfish" + ("" if rel == "." else "/" + rel)
            with open(os.path.join(d, "index.json"), encoding="utf-8") as f:
                docs[key] = json.load(f)
    return docs


def pointer_set(doc, pointer, value):
    parts = [p.replace("~1", "/").replace("~0", "~")
             for p in pointer.split("/")[1:]]
    if not parts:
        raise ValueError("empty pointer")
    cur = doc
    for p in parts[:-1]:
        cur = cur[int(p)] if isinstance(cur, list) else cur[p]
    last = parts[-1]
    if isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value


class State:
    def __init__(self, root, user, password):
        self.root = root
        self.user = user
        self.password = password
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.docs = load(self.root)
        self.faults = {}
        self.hits = {}


def norm(path):
    path = path.split("?", 1)[0]
    while len(path) > 1 and path.endswith("/"):
        path = path[:-1]
    return path


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "redfish-mock/1"

    def setup(self):
        super().setup()
        # headers and body go out in two writes: without this, Nagle and
        # the client's delayed ACK make each answer wait 40 ms
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *args):
        pass

    def send(self, code, body, ctype="application/json", length=True,
             headers=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        for k, v in headers:
            self.send_header(k, v)
        if length:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

    def send_json(self, code, obj):
        self.send(code, json.dumps(obj).encode())

    def authorised(self):
        st = self.server.state
        want = base64.b64encode(
            ("%s:%s" % (st.user, st.password)).encode()).decode()
        return self.headers.get("Authorization", "") == "Basic " + want

    def do_GET(self):
        st = self.server.state
        path = norm(self.path)
        if path == "/_mock/hits":
            with st.lock:
                return self.send_json(200, st.hits)
        with st.lock:
            st.hits[path] = st.hits.get(path, 0) + 1
            fault = st.faults.get(path)
            if fault and "times" in fault:
                fault["times"] -= 1
                if fault["times"] <= 0:
                    del st.faults[path]
            doc = st.docs.get(path)
            body = json.dumps(doc, indent=2).encode() if doc else None
        if path != "/redfish/v1" and not self.authorised():
            return self.send(401, b'{"error": "unauthorized"}',
                             headers=[("WWW-Authenticate",
                                       'Basic realm="redfish"')])
        if fault and self.fault(path, fault, body):
            return
        if body is None:
            return self.send_json(404, {"error": "no resource " + path})
        self.send(200, body)

    def fault(self, path, fault, body):
        mode = fault["mode"]
        if mode == "hang":
            time.sleep(float(fault.get("seconds", 30)))
            return False
        if mode == "malformed":
            cut = (body or b'{"Id": "x", "Reading": 1}')
            self.send(200, cut[: max(1, len(cut) // 2)])
        elif mode in ("huge", "huge-stream"):
            pad = b'{"Pad": "' + b"x" * (8 << 20) + b'"}'
            self.send(200, pad, length=(mode == "huge"))
        elif mode == "deep":
            self.send(200, b"[" * 10000 + b"]" * 10000)
        elif mode == "binary":
            rnd = random.Random(7)
            self.send(200, bytes(rnd.randrange(256) for _ in range(4096)))
        elif mode in ("500", "404"):
            self.send_json(int(mode), {"error": "injected " + mode})
        elif mode == "redirect-off":
            port = self.server.server_address[1]
            self.send(302, b"", headers=[
                ("Location", "http://127.0.0.2:%d%s" % (port, path))])
        elif mode == "redirect-on":
            self.send(302, b"", headers=[("Location", path + "/")])
        else:
            return False
        return True

    do_HEAD = do_GET

    def do_POST(self):
        st = self.server.state
        path = norm(self.path)
        n = int(self.headers.get("Content-Length", "0") or 0)
        try:
            req = json.loads(self.rfile.read(n) or b"{}")
            with st.lock:
                if path == "/_mock/set":
                    for r in req if isinstance(req, list) else [req]:
                        pointer_set(st.docs[norm(r["path"])], r["pointer"],
                                    r["value"])
                elif path == "/_mock/fault":
                    if req.get("mode", "none") == "none":
                        st.faults.pop(norm(req["path"]), None)
                    else:
                        st.faults[norm(req["path"])] = req
                elif path == "/_mock/auth":
                    st.user, st.password = req["user"], req["password"]
                elif path == "/_mock/reset":
                    st.reset()
                else:
                    return self.send_json(404, {"error": "no control " + path})
        except (KeyError, IndexError, ValueError, TypeError) as e:
            return self.send_json(400, {"error": "%s: %s" % (type(e).__name__,
                                                             e)})
        self.send_json(200, {"ok": True})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--dir", default="tests/fixtures/redfish")
    ap.add_argument("--user", default="admin")
    ap.add_argument("--password", default="secret")
    ap.add_argument("--tls-cert")
    ap.add_argument("--tls-key")
    a = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    if a.tls_cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(a.tls_cert, a.tls_key)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    srv.daemon_threads = True
    srv.state = State(a.dir, a.user, a.password)
    print(srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
