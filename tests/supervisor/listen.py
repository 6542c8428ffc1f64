#!/usr/bin/env python3
"""A listener on a pathname unix socket, for tests/supervisor/run: everything
it receives goes to LOG, one line per connection or datagram, so the suite
can tell from outside whether anything reached it. READY is made once it
listens. It runs until killed. Connections are served one after the other,
so what the suite sends last ("sync") is logged after everything before.

    listen.py PATH stream|dgram LOG READY"""
import os, socket, sys

path, kind, log, ready = sys.argv[1:5]
try:
    os.unlink(path)
except OSError:
    pass
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM if kind == "stream" else socket.SOCK_DGRAM)
s.bind(path)


def note(data):
    with open(log, "ab") as f:
        f.write(data.replace(b"\n", b" ") + b"\n")


def serve(conn):
    data = b""
    try:
        conn.settimeout(5)
        while True:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    conn.close()
    note(b"connection: " + data)


open(log, "ab").close()
if kind == "stream":
    s.listen(64)
    open(ready, "w").close()
    while True:
        conn, _ = s.accept()
        serve(conn)
else:
    open(ready, "w").close()
    while True:
        note(b"datagram: " + s.recv(65536))
